// The card panel's webview gets `panelCardOf(card)`, never the wire's card: every field it shows,
// for each kind of card, comes through as it was; what it does not show is left behind.
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { panelCardOf, type PanelCard } from '../../src/shared/panel-card';

/** What every kind shares: the wire's whole card with the parts the panel does not show. */
const wire = (over: Partial<Card>): Card => ({
  id: 'req_1', version: 4, status: 'pending', turn: 'you', kind: 'choice', title: 'Which database?',
  summary: 'For the orders service.', urgency: 'high', blocking: true, highStakes: false,
  threadId: 'thr_1', whole: undefined, url: 'https://cards.example/c/req_1',
  createdAt: '2026-11-27T10:00:00Z', changedAt: '2026-11-27T10:05:00Z',
  assistant: { id: 'as_1', name: 'Claude', app: 'claude-code' }, agent: { id: 'ag_1', name: 'main' },
  area: { id: 'ar_1', name: 'shop' }, machine: { id: 'mc_1', name: 'laptop' },
  answer: { choiceIds: ['a'] }, undoUntil: '2026-11-27T10:05:05Z',
  history: [
    { at: '2026-11-27T10:00:00Z', type: 'asked', by: 'assistant', app: 'claude-code', appName: 'Claude Code', machine: { id: 'mc_1', name: 'laptop' }, detail: 'first' },
    { at: '', type: 'unknown' },
  ],
  answeredFrom: { app: 'VS Code', machine: { id: 'mc_2', name: 'desk' } },
  ...over,
} as Card);

/** The shared part as the panel gets it. */
const shown: PanelCard = {
  version: 4, status: 'pending', turn: 'you', kind: 'choice', title: 'Which database?',
  summary: 'For the orders service.', urgency: 'high', blocking: true, highStakes: false,
  url: 'https://cards.example/c/req_1', createdAt: '2026-11-27T10:00:00Z',
  assistant: { name: 'Claude' }, agent: { name: 'main' }, area: { name: 'shop' }, machine: { name: 'laptop' },
  history: [
    { at: '2026-11-27T10:00:00Z', type: 'asked', by: 'assistant', app: 'claude-code', appName: 'Claude Code', machine: { name: 'laptop' }, detail: 'first' },
    { at: '', type: 'unknown' },
  ],
  answeredFrom: { app: 'VS Code', machine: { name: 'desk' } },
};

const options = [{ id: 'a', label: 'Postgres' }, { id: 'b', label: 'SQLite' }];
const proposal = { helper: { assistantId: 'as_2', agentId: 'ag_2' }, choiceIds: ['a'], note: { text: 'fast' } };

const kinds: [string, Partial<Card>, Partial<PanelCard>][] = [
  ['choice', { kind: 'choice', options, recommendedIds: ['a'], multi: true, proposal },
    { kind: 'choice', options, recommendedIds: ['a'], multi: true, proposal }],
  ['approval', { kind: 'approval', status: 'delegated', delegatedTo: { assistantId: 'as_2', agentId: 'ag_2', mode: 'loop' } },
    // Claude Code's approval gates what the CLI runs: handed over in loop only (#52).
    { kind: 'approval', status: 'delegated', delegatedTo: { assistantId: 'as_2', agentId: 'ag_2', mode: 'loop' }, loopOnly: true }],
  ['text', { kind: 'text', status: 'snoozed', until: '2026-11-28T09:00:00Z' },
    { kind: 'text', status: 'snoozed', until: '2026-11-28T09:00:00Z' }],
  ['questions', { kind: 'questions', asks: [{ id: 'q1', title: 'Port?' }, { id: 'q2', title: 'Engine?', options }] },
    { kind: 'questions', asks: [{ id: 'q1', title: 'Port?' }, { id: 'q2', title: 'Engine?', options }] }],
  ['failure', { kind: 'failure', steps: [{ title: 'build', state: 'done' }, { title: 'test', state: 'failed', detail: '2 failed' }], options },
    { kind: 'failure', steps: [{ title: 'build', state: 'done' }, { title: 'test', state: 'failed', detail: '2 failed' }], options }],
  ['update', {
    kind: 'update', severity: 'error', count: 3, from: 'ci', webhook: { name: 'CI', area: { id: 'ar_9', name: 'builds' } },
    firstAt: '2026-11-27T09:00:00Z', lastAt: '2026-11-27T09:30:00Z', worker: 'w-2',
  }, {
    kind: 'update', severity: 'error', count: 3, from: 'ci', webhook: { name: 'CI', area: { name: 'builds' } },
    firstAt: '2026-11-27T09:00:00Z', lastAt: '2026-11-27T09:30:00Z', worker: 'w-2',
  }],
];

describe('panelCardOf: the card as the panel shows it', () => {
  for (const [kind, over, expected] of kinds) {
    it(`keeps what a ${kind} card shows and leaves the rest`, () => {
      const card = wire(over);
      const panel = panelCardOf(card);
      assert.deepEqual(panel, { ...shown, ...expected });
      // Left behind: the ids and parts the webview never shows (it names things by their names).
      for (const key of ['id', 'threadId', 'whole', 'changedAt', 'answer', 'undoUntil']) assert.ok(!(key in panel), key);
      assert.ok(!('id' in panel.assistant!) && !('app' in panel.assistant!), 'the assistant by its name only');
      assert.ok(!('id' in panel.machine!) && !('id' in panel.history![0]!.machine!));
      // A new value: nothing in it is the model's own card.
      for (const key of ['options', 'asks', 'steps', 'history', 'proposal', 'delegatedTo', 'webhook'] as const) {
        if (card[key] !== undefined) assert.notEqual(panel[key], card[key], key);
      }
    });
  }

  it('leaves out what the card does not have (a light card read whole with nothing more)', () => {
    const card = { id: 'req_2', version: 1, status: 'done', turn: 'agent', kind: 'text', title: 'T' } as Card;
    assert.deepEqual(panelCardOf(card), { version: 1, status: 'done', turn: 'agent', kind: 'text', title: 'T' });
  });

  it('keeps a kind, status or turn the panel does not know, as it came', () => {
    const card = wire({ kind: 'poll', status: 'paused', turn: 'team' });
    const panel = panelCardOf(card);
    assert.deepEqual([panel.kind, panel.status, panel.turn], ['poll', 'paused', 'team']);
  });
});
