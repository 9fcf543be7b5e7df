// The Assistants view's open counts follow the cards (#54): a card of an agent the view shows
// comes or goes, and the assistants are read again once the run of changes settles (one read for
// a run), never for a card of an agent the view does not show. Plain Node, the vscode stub.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { Assistant, CardListEntry } from '../../src/api/schemas';
import { createAssistantsFeature } from '../../src/editor/assistants/assistants-feature';
import { TreeViewSlot } from '../../src/editor/base/tree-view-slot';
import { ContextKeys } from '../../src/editor/context-keys';
import type { Log } from '../../src/editor/base/log';
import { Emitter } from '../../src/api/runtime';
import type { CardChange, CardRemoval } from '../../src/sync/contract';
import { until } from '../kit/until';

const noop = { dispose() {} };
const silent: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {}, dispose() {} };

const SHOWN: Assistant = {
  id: 'ast_1', name: 'Claude Code', app: 'claude-code', appName: 'Claude Code', machine: { id: 'mch_1', name: 'this computer' },
  agents: [{ id: 'agt_1', name: 'shop', state: 'live', liveAt: null, openCards: 0, liveSessions: [] }],
} as unknown as Assistant;
const cardOf = (agent: string, status = 'pending', turn = 'you'): CardListEntry => ({
  id: `req_${agent}`, version: 1, kind: 'approval', title: 'Run it?', status, turn,
  assistant: { id: 'ast_1', name: 'Claude Code' }, agent: { id: agent, name: 'shop' },
} as unknown as CardListEntry);

function aWindow() {
  const window = vscode.window as unknown as Record<string, unknown>;
  const saved = { ...window };
  Object.assign(window, {
    terminals: [], activeTerminal: undefined,
    onDidOpenTerminal: () => noop, onDidCloseTerminal: () => noop, onDidChangeTerminalShellIntegration: () => noop,
    onDidChangeWindowState: () => noop, state: { focused: false },
  });
  const added = new Emitter<CardListEntry>();
  const changed = new Emitter<CardChange>();
  const removed = new Emitter<CardRemoval>();
  const reads: number[] = [];
  const core = {
    state: { kind: 'online', me: { grant: { scopes: [], machine: { id: 'mch_1' } } } },
    onDidChangeState: () => noop,
    cards: { get: () => undefined, setScope() {}, added: added.event, changed: changed.event, removed: removed.event },
    assistants: { list: () => [SHOWN], changed: () => noop, refresh: async () => { reads.push(Date.now()); } },
  };
  const feature = createAssistantsFeature(core as never, silent, new TreeViewSlot('assistantCards.assistants'), new ContextKeys());
  return {
    added, changed, removed, reads,
    dispose() {
      feature.dispose();
      for (const k of Object.keys(window)) if (!(k in saved)) delete window[k];
      Object.assign(window, saved);
    },
  };
}

describe('the Assistants view\'s open counts follow the cards (#54)', () => {
  let w: ReturnType<typeof aWindow>;
  beforeEach(() => { w = aWindow(); });
  afterEach(() => w.dispose());

  it('a card of a shown agent comes, is answered and goes: one read for each run, once it settles', async () => {
    const waiting = cardOf('agt_1');
    w.added.fire(waiting);
    // A run: its new version, still waiting, moves nothing; the read comes once.
    w.changed.fire({ previous: waiting, card: { ...waiting, version: 2 } as CardListEntry });
    await until(() => w.reads.length === 1 || undefined, 5_000);
    const answered = cardOf('agt_1', 'answered', 'agent');
    w.changed.fire({ previous: waiting, card: answered });
    w.removed.fire({ id: answered.id, previous: answered });
    await until(() => w.reads.length === 2 || undefined, 10_000);
    // The second read keeps its distance from the first (at most one a 3 s).
    assert.ok(w.reads[1]! - w.reads[0]! >= 2_900, `reads ${w.reads[1]! - w.reads[0]!} ms apart`);
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(w.reads.length, 2, 'no read after the runs');
  });

  it('a card of an agent the view does not show, or one waiting on the assistant, reads nothing', async () => {
    w.added.fire(cardOf('agt_elsewhere'));
    w.added.fire(cardOf('agt_1', 'pending', 'agent'));
    await new Promise((r) => setTimeout(r, 1_500));
    assert.deepEqual(w.reads, []);
  });
});
