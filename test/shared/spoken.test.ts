// What a screen reader says for tree items and the status bar: every part a sighted person reads
// from icons, groups and separators is in the sentence, and service text stays plain.
import * as assert from 'node:assert/strict';
import type { Agent, Assistant, CardListEntry, LiveSession } from '../../src/api/schemas';
import {
  spokenAgent, spokenAssistant, spokenCard, spokenGoneAssistantItem, spokenGoneCard, spokenGroup, spokenSession, spokenStatus,
} from '../../src/shared/spoken';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

const card = (over: Partial<Record<string, unknown>> = {}): CardListEntry => ({
  id: 'c1', version: 1, status: 'pending', turn: 'you', kind: 'choice', title: 'Deploy to staging?',
  assistant: { id: 'a1', name: 'Claude', app: 'claude-code' }, createdAt: minutesAgo(2), ...over,
}) as CardListEntry;

const agent = (over: Partial<Agent> = {}): Agent => ({
  id: 'g1', name: 'main', state: 'live', openCards: 2, liveSessions: [], ...over,
}) as Agent;

describe('spoken labels (screen reader text)', () => {
  it('a card says what it is, who asks, where it stands and when', () => {
    assert.equal(spokenCard(card(), NOW), 'Card: Deploy to staging?, asked by Claude, waiting on you, 2 minutes ago');
    assert.equal(spokenCard(card({ turn: 'agent', agent: { id: 'g1', name: 'main' } }), NOW),
      'Card: Deploy to staging?, asked by Claude, agent main, waiting on the assistant, 2 minutes ago');
  });

  it('a card names every state, blocking, urgency and high stakes', () => {
    assert.match(spokenCard(card({ status: 'snoozed', until: new Date(NOW + 10 * 60_000).toISOString() }), NOW), /, later, back in 10 minutes,/);
    assert.match(spokenCard(card({ status: 'delegated' }), NOW), /, with a helper,/);
    assert.match(spokenCard(card({ status: 'done', changedAt: minutesAgo(60) }), NOW), /, done, 1 hour ago$/);
    assert.match(spokenCard(card({ status: 'answered', undoUntil: new Date(NOW + 3000).toISOString() }), NOW), /answered, undo still possible/);
    assert.match(spokenCard(card({ status: 'answered', undoUntil: minutesAgo(1) }), NOW), /, answered, /);
    const loud = spokenCard(card({ urgency: 'high', blocking: true, highStakes: true }), NOW);
    assert.match(loud, /urgency high, blocking, high stakes, answered only in the browser$/);
  });

  it('a light card (no assistant, no times) still says its title and state', () => {
    assert.equal(spokenCard({ id: 'c2', version: 1, status: 'pending', turn: 'you', kind: 'text', title: 'Name?', whole: false }, NOW),
      'Card: Name?, waiting on you');
  });

  it('a notice says where it came from and how often it was seen', () => {
    const n = card({ kind: 'update', title: 'Build failed', assistant: undefined, webhook: { name: 'CI' }, from: 'github', count: 3, lastAt: minutesAgo(5) });
    assert.equal(spokenCard(n, NOW), 'Notice: Build failed, from CI, github, waiting on you, seen 3 times, 5 minutes ago');
  });

  it('service text is one plain line: no links, no icons, no line breaks', () => {
    const s = spokenCard(card({ title: 'Open [this](command:workbench.action.terminal.new)\n$(alert) now', assistant: { id: 'a', name: 'Ev\u202eil', app: 'x' } }), NOW);
    assert.doesNotMatch(s, /\]\(|\$\(|\n|\u202e/);
  });

  it('groups, placeholders and gone items are never silent', () => {
    assert.equal(spokenGroup('Waiting on you', 3), 'Group Waiting on you, 3 cards');
    assert.equal(spokenGroup('Later', 1), 'Group Later, 1 card');
    assert.equal(spokenGroup('Done (30 days)', undefined), 'Group Done (30 days), opens to load its cards');
    for (const s of [spokenGoneCard(), spokenGoneAssistantItem('assistant'), spokenGoneAssistantItem('agent'), spokenGoneAssistantItem('session')]) {
      assert.ok(s.length > 5, s);
    }
  });

  it('assistants, agents and sessions say whose, where and whether live', () => {
    const a = { id: 'a1', name: 'Claude', app: 'claude-code', appName: 'Claude Code', machine: { id: 'm', name: 'laptop' }, agents: [agent(), agent({ id: 'g2', state: 'idle', openCards: 1 })] } as unknown as Assistant;
    assert.equal(spokenAssistant(a, 'demo one'), 'Assistant: Claude, Claude Code on laptop, live, 3 open cards, runs in terminal demo one of this window');
    assert.match(spokenAssistant({ ...a, agents: [agent({ state: 'idle', openCards: 1 })] }, undefined), /not live, 1 open card, not in a terminal of this window$/);
    assert.equal(spokenAgent(agent(), NOW), 'Agent: main, live, 2 open cards');
    assert.equal(spokenAgent(agent({ state: 'idle', liveAt: minutesAgo(5), openCards: 1 }), NOW), 'Agent: main, idle, last live 5 minutes ago, 1 open card');
    const s = { appSessionId: 's1', cwd: '/home/dev/api', liveAt: minutesAgo(0) } as LiveSession;
    assert.equal(spokenSession(s, 'demo one', NOW), 'Session in folder /home/dev/api, in terminal demo one, live just now');
    assert.equal(spokenSession(s, undefined, NOW), 'Session in folder /home/dev/api, not in this window, live just now');
  });

  it('the status bar speaks in every connection state', () => {
    const none = { waiting: 0, blockingWaiting: 0 };
    const some = { waiting: 3, blockingWaiting: 1 };
    assert.equal(spokenStatus({ kind: 'signed-out' }, none), 'Assistant Cards: signed out. Activate to sign in.');
    assert.equal(spokenStatus({ kind: 'not-set-up', reason: 'no file' }, none), 'Assistant Cards: this computer is not set up.');
    assert.match(spokenStatus({ kind: 'signing-in', userCode: 'ABCD-$(x)', verificationUri: 'u', verificationUriComplete: 'u' }, none), /code ABCD-\$ \(x\)\./);
    assert.equal(spokenStatus({ kind: 'offline', since: NOW, lastError: 'x' }, some), 'Assistant Cards: offline, as last read, 3 cards wait on you, 1 blocking');
    assert.equal(spokenStatus({ kind: 'online', me: {} as never }, none), 'Assistant Cards: no cards wait on you');
    assert.equal(spokenStatus({ kind: 'online', me: {} as never }, { waiting: 1, blockingWaiting: 0 }), 'Assistant Cards: 1 card waits on you');
    assert.equal(spokenStatus({ kind: 'online', me: {} as never }, some), 'Assistant Cards: 3 cards wait on you, 1 blocking');
  });
});
