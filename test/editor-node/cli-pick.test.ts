// One Connect and one Disconnect for every CLI (#53/#54): called with a CLI's id (a test, a
// keybinding's `args`) or an Assistants view row they act on that CLI at once; from the palette
// the person picks among the adapters (Connect: those not connected; Disconnect: those connected),
// each by its name and its settings file; an argument that names no CLI of ours does nothing and
// says so. What follows the pick is the CLI's Connect or Disconnect as before (connect-cli.test.ts).
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { isCli } from '../../src/bridge/clis/index';
import { cliTargetOf, runCliCommand, type CliChoice, type CliVerb } from '../../src/editor/connect/cli-pick';

const STATES: CliChoice[] = [
  { id: 'claude-code', name: 'Claude Code', file: '/home/ada/.claude/settings.json', connected: true },
  { id: 'codex', name: 'Codex', file: '/home/ada/.codex/hooks.json', connected: false },
  { id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json', connected: false },
];

interface Seen { picks: { items: { label: string; description?: string }[]; title?: string }[]; said: string[]; acted: string[] }

/** The command over STATES whose flow only records what it was asked; the person picks `choose` of each pick. */
function connector(choose: (items: { label: string }[]) => unknown, states = STATES) {
  const seen: Seen = { picks: [], said: [], acted: [] };
  const c = {
    run: (verb: CliVerb, arg?: unknown) => runCliCommand(verb, arg, {
      isCli, states: async () => states, warn: () => undefined,
      apply: async (v, id) => { seen.acted.push(`${v} ${id}`); return v === 'connect' ? 'connected' : 'disconnected'; },
    }),
  };
  const window = vscode.window as unknown as Record<string, unknown>;
  const before = { ...window };
  window.showQuickPick = async (items: { label: string; description?: string }[], o: { title?: string }) => { seen.picks.push({ items, title: o.title }); return choose(items); };
  for (const k of ['showInformationMessage', 'showErrorMessage', 'showWarningMessage']) window[k] = async (text: string) => { seen.said.push(text); return undefined; };
  return { c, seen, restore: () => { for (const k of Object.keys(window)) if (!(k in before)) delete window[k]; Object.assign(window, before); } };
}

describe('Connect and Disconnect: the CLI named, or picked', () => {
  it('an id or an Assistants view row acts on that CLI at once, no pick', async () => {
    const { c, seen, restore } = connector(() => assert.fail('no pick'));
    try {
      assert.equal(await c.run('connect', 'codex'), 'connected');
      assert.equal(await c.run('disconnect', { kind: 'cli', cli: 'claude-code' }), 'disconnected');
      assert.deepEqual(seen.acted, ['connect codex', 'disconnect claude-code']);
      assert.deepEqual(seen.picks, []);
    } finally { restore(); }
  });

  it('from the palette, Connect offers the CLIs not connected, by name and settings file; the one picked is connected', async () => {
    const { c, seen, restore } = connector((items) => items[1]);
    try {
      assert.equal(await c.run('connect'), 'connected');
      assert.equal(seen.picks.length, 1);
      assert.deepEqual(seen.picks[0]!.items.map((i) => [i.label, i.description]), [['Codex', '/home/ada/.codex/hooks.json'], ['Gemini CLI', '/home/ada/.gemini/settings.json']]);
      assert.equal(seen.picks[0]!.title, 'Connect an Assistant CLI');
      assert.deepEqual(seen.acted, ['connect gemini-cli']);
    } finally { restore(); }
  });

  it('Disconnect offers the connected ones; Escape does nothing', async () => {
    const { c, seen, restore } = connector(() => undefined);
    try {
      assert.equal(await c.run('disconnect'), 'cancelled');
      assert.deepEqual(seen.picks[0]!.items.map((i) => i.label), ['Claude Code']);
      assert.equal(seen.picks[0]!.title, 'Disconnect an Assistant CLI');
      assert.deepEqual(seen.acted, []);
    } finally { restore(); }
  });

  it('nothing to pick: says so, shows no empty pick', async () => {
    const { c, seen, restore } = connector(() => assert.fail('no pick'), STATES.map((s) => ({ ...s, connected: false })));
    try {
      assert.equal(await c.run('disconnect'), 'cancelled');
      assert.deepEqual(seen.said, ['Assistant Cards: no assistant CLI is connected; nothing to disconnect.']);
      assert.deepEqual([seen.picks, seen.acted], [[], []]);
    } finally { restore(); }
  });

  it('an argument that names no CLI of ours does nothing and says which, as plain text', async () => {
    const { c, seen, restore } = connector(() => assert.fail('no pick'));
    try {
      assert.equal(await c.run('connect', 'claude'), 'unknown');
      assert.equal(await c.run('disconnect', { kind: 'cli', cli: 'x\u202E[y](command:z)' }), 'unknown');
      assert.equal(await c.run('connect', 42), 'unknown');
      assert.deepEqual(seen.acted, []);
      assert.match(seen.said[0]!, /^Assistant Cards: there is no assistant CLI "claude" to connect\. Run "Connect an Assistant CLI…" without an argument to pick one\.$/);
      assert.ok(!seen.said[1]!.includes('\u202E') && !seen.said[1]!.includes('](command:'), seen.said[1]);
    } finally { restore(); }
  });

  it('what an argument names, read without trusting it', () => {
    const ours = (id: unknown) => id === 'codex';
    assert.deepEqual(cliTargetOf(undefined, ours), { pick: true });
    assert.deepEqual(cliTargetOf('codex', ours), { id: 'codex' });
    assert.deepEqual(cliTargetOf({ kind: 'cli', cli: 'codex' }, ours), { id: 'codex' });
    assert.deepEqual(cliTargetOf({ kind: 'assistant', cli: 'codex' }, ours), { unknown: '{"kind":"assistant","cli":"codex"}' });
    assert.deepEqual(cliTargetOf('Codex', ours), { unknown: 'Codex' });
  });
});
