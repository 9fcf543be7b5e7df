// Every command that takes a card, run with a bare id this window does not hold (a command link,
// another extension), makes no panel and spends no read (#37). On main `openCard` opened a panel
// for any well-formed id (its read spent the person's read allowance as their own read), and
// `focusTerminal` read the unknown card whole to find its assistant.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { CardListEntry } from '../../src/api/schemas';
import { registerCommands, type CommandHost } from '../../src/editor/commands';
import { createAssistantsFeature } from '../../src/editor/assistants/assistants-feature';
import { TreeViewSlot } from '../../src/editor/base/tree-view-slot';
import { ContextKeys } from '../../src/editor/context-keys';
import type { LiveParts } from '../../src/editor/live-parts';
import type { Log } from '../../src/editor/base/log';
import { EVERYTHING } from '../../src/shared/grant-scopes';

const noop = { dispose() {} };
const silent: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {}, dispose() {} };

/** The commands that take a card (command-names.ts); each is run with the unknown id. */
const TAKING_A_CARD = ['openCard', 'answer', 'gotIt', 'undo', 'writeToAssistant', 'later', 'back', 'handOver', 'takeBack', 'openInBrowser', 'focusTerminal'];

const HELD: CardListEntry = {
  id: 'req_held1', version: 1, status: 'pending', turn: 'you', kind: 'approval', title: 'Run the tests?',
  assistant: { id: 'ast_1', name: 'api' }, agent: { id: 'agt_1', name: 'main' },
} as unknown as CardListEntry;

interface Seen { opened: { id: string; preserveFocus: boolean | undefined }[]; reads: string[] }

/** The commands as registered, on a signed-in window holding HELD; records panels opened and reads. */
function commandsOfAWindow(): { run(name: string, arg: unknown): Promise<unknown>; seen: Seen; dispose(): void } {
  const seen: Seen = { opened: [], reads: [] };
  const commands = vscode.commands as unknown as Record<string, unknown>;
  const window = vscode.window as unknown as Record<string, unknown>;
  const saved = { registerCommand: commands.registerCommand, w: { ...window } };
  const handlers = new Map<string, (...a: unknown[]) => unknown>();
  commands.registerCommand = (id: string, fn: (...a: unknown[]) => unknown) => { handlers.set(id, fn); return noop; };
  // What the terminal matcher and the scope listen to: a window with no terminals.
  Object.assign(window, {
    terminals: [], activeTerminal: undefined,
    onDidOpenTerminal: () => noop, onDidCloseTerminal: () => noop, onDidChangeTerminalShellIntegration: () => noop,
    onDidChangeWindowState: () => noop, state: { focused: false },
    showInformationMessage: async () => undefined, showWarningMessage: async () => undefined, showErrorMessage: async () => undefined,
    showQuickPick: async () => { throw new Error('a pick was shown for a bare id'); },
  });
  const cards = {
    get: (id: string) => (id === HELD.id ? HELD : undefined),
    list: () => [HELD],
    read: async (id: string) => { seen.reads.push(id); return HELD; },
    whole: async (id: string) => { seen.reads.push(id); return HELD; },
    setScope() {},
  };
  const state = { kind: 'online', me: { grant: { scopes: [], machine: { id: 'mch_1' } } } };
  const core = {
    state, cards, onDidChangeState: () => noop,
    assistants: { list: () => [], changed: () => noop, refresh: async () => undefined },
    gestures: { fromUiEvent: () => ({}) },
    act: async () => { throw new Error('a bare id pressed something'); },
    pageUrl: async (c: { id: string }) => { seen.reads.push(c.id); return undefined; },
  };
  const keys = new ContextKeys();
  const assistants = createAssistantsFeature(core as never, silent, new TreeViewSlot('assistantCards.assistants'), keys);
  const parts = {
    core, assistants,
    tree: { owns: () => false },
    answers: { owns: () => false },
    grant: { allowed: () => EVERYTHING },
  } as unknown as LiveParts;
  const host: CommandHost = {
    log: silent, live: () => parts,
    openCard: (id, opts) => { seen.opened.push({ id, preserveFocus: opts?.preserveFocus }); },
    signIn: async () => undefined, signOut: async () => undefined, refreshState: async () => undefined,
    startSandbox: async () => undefined, timeZone: () => 'UTC', contextKeys: keys,
    cli: { connect: async () => 'cancelled', disconnect: async () => 'cancelled' } as unknown as CommandHost['cli'],
    localService: { run: async () => undefined },
  };
  registerCommands(host);
  return {
    seen,
    run: async (name, arg) => {
      const h = handlers.get(`assistantCards.${name}`);
      assert.ok(h, `${name} is registered`);
      return h(arg);
    },
    dispose: () => {
      assistants.dispose();
      commands.registerCommand = saved.registerCommand;
      for (const k of Object.keys(window)) if (!(k in saved.w)) delete window[k];
      Object.assign(window, saved.w);
    },
  };
}

describe('a bare card id from outside opens nothing and reads nothing', () => {
  it('each command taking a card, run with an id this window does not hold (as a string and as {id}), makes no panel and spends no read', async () => {
    const w = commandsOfAWindow();
    try {
      for (const name of TAKING_A_CARD) {
        for (const arg of ['req_unknown1', { id: 'req_unknown2' }]) {
          await w.run(name, arg);
          assert.deepEqual(w.seen.opened, [], `${name}(${JSON.stringify(arg)}) opened a panel`);
          assert.deepEqual(w.seen.reads, [], `${name}(${JSON.stringify(arg)}) read the card`);
        }
      }
    } finally {
      w.dispose();
    }
  });

  it('a held card named from outside still opens, without the keyboard (the same run, so the record above can see a panel)', async () => {
    const w = commandsOfAWindow();
    try {
      await w.run('openCard', HELD.id);
      assert.deepEqual(w.seen.opened, [{ id: HELD.id, preserveFocus: true }]);
      // A card action named from outside opens the card it names and acts on nothing.
      await w.run('answer', { id: HELD.id });
      assert.deepEqual(w.seen.opened.map((o) => o.id), [HELD.id, HELD.id]);
      assert.deepEqual(w.seen.reads, []);
    } finally {
      w.dispose();
    }
  });
});
