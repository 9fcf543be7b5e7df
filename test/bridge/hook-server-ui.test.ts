// hook.ts with a CLI whose hooks run in a shared server (plain `codex`, src/bridge/codex-ui.ts):
// the session names the UI's terminal, not the hook parent's; where the UI is not known it names
// none; the UI is claimed and watched once per session (its exit ends the session through the
// hook again), and the session's end lets the claim go. The real Codex is in real-codex-tui.test.ts.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { runHook, type HookOptions } from '../../src/bridge/hook';
import { claimFile } from '../../src/bridge/ui-watch';
import { signIn, startSandbox, type SignedIn } from '../sandbox/helpers';
import { until } from '../kit/until';

describe('hook bridge: a session whose hooks run in a shared server', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let person: SignedIn;
  let keysDir: string;
  const uis: ReturnType<typeof spawn>[] = [];
  beforeEach(async () => {
    keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-server-ui-'));
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
  });
  afterEach(async () => {
    for (const u of uis.splice(0)) u.kill('SIGKILL');
    await sb.close();
    fs.rmSync(keysDir, { recursive: true, force: true });
  });

  const event = (name: string, id = 'thread-1') => JSON.stringify({ session_id: id, transcript_path: '/tmp/t.jsonl', cwd: '/home/dev/shop', hook_event_name: name, model: 'gpt-5' });
  const hook = (input: string, o: Partial<HookOptions>) => runHook({
    app: 'codex', input, service: { url: sb.url, askKey: sb.askKey }, terminal: () => ({ pid: 777, program: 'the-server' }), waitMs: 5_000, keysDir, ...o,
  });
  const live = async () => {
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; agents: { liveSessions: { appSessionId: string; terminal?: unknown }[] }[] }[];
    return list.filter((a) => a.app === 'codex').flatMap((a) => a.agents.flatMap((g) => g.liveSessions)).map((s) => [s.appSessionId, s.terminal]);
  };
  const claim = (id = 'thread-1') => claimFile({ dir: keysDir, askKey: sb.askKey, app: 'codex', appSessionId: id });

  it('the UI found: its terminal is the session\'s, it is claimed and watched once; its exit ends the session', async () => {
    const ui = spawn('sleep', ['60'], { stdio: 'ignore' });
    uis.push(ui);
    const ends = path.join(keysDir, 'ends');
    // The watcher's end goes through this hook again, as the bridge's own command line would.
    const hookArgv = ['sh', '-c', `cat >> ${JSON.stringify(ends)}; echo >> ${JSON.stringify(ends)}`];
    const seen: unknown[] = [];
    const sharedServerUi: HookOptions['sharedServerUi'] = (at) => { seen.push([at.cwd, [...at.claimed()], at.mine()]); return { terminal: { pid: ui.pid!, tty: '/dev/pts/9', program: 'vscode' }, pid: ui.pid! }; };
    await hook(event('SessionStart'), { sharedServerUi, hookArgv });
    await hook(event('UserPromptSubmit'), { sharedServerUi, hookArgv });
    assert.deepEqual(await live(), [['thread-1', { pid: ui.pid, tty: '/dev/pts/9', program: 'vscode' }]], 'the UI\'s terminal, not the server\'s (777)');
    assert.deepEqual(seen, [['/home/dev/shop', [], undefined], ['/home/dev/shop', [], ui.pid]], 'asked with the session\'s folder; its own claim is not another\'s, and is its UI at the next event');
    assert.equal(fs.readFileSync(claim(), 'utf8'), String(ui.pid));
    ui.kill('SIGKILL');
    const told = await until('the watcher\'s end', () => { const t = fs.existsSync(ends) ? fs.readFileSync(ends, 'utf8') : ''; return t.endsWith('\n') ? t : undefined; }, 10_000, 50);
    assert.equal(told.trim().split('\n').length, 1, 'one watcher for the two events');
    // What the watcher hands the hook ends the session and lets the claim go.
    await hook(told.trim(), {});
    assert.deepEqual(await live(), []);
    assert.equal(fs.existsSync(claim()), false);
  });

  it('the UI not known (two in the folder): the session names no terminal, never the server\'s; nothing is watched', async () => {
    await hook(event('SessionStart'), { sharedServerUi: () => ({ terminal: {} }), hookArgv: ['false'] });
    assert.deepEqual(await live(), [['thread-1', {}]]);
    assert.equal(fs.existsSync(claim()), false);
  });

  it('a CLI whose hook parent is the CLI itself (the answer undefined): the hook parent\'s terminal, as before', async () => {
    await hook(event('SessionStart'), { sharedServerUi: () => undefined, hookArgv: ['false'] });
    assert.deepEqual(await live(), [['thread-1', { pid: 777, program: 'the-server' }]]);
  });

  it('a CLI whose hooks never run in a shared server (Claude Code): no UI is looked for, its hook parent is its terminal', async () => {
    const asked: string[] = [];
    await hook(event('SessionStart'), { app: 'claude-code', sharedServerUi: (at) => { asked.push(at.cwd); return { terminal: {} }; }, hookArgv: ['false'] });
    assert.deepEqual(asked, [], 'the shared-server look (the process\'s command line read) is Codex\'s only');
    const list = (await person.request('GET', '/v1/assistants')).json.assistants as { app: string; agents: { liveSessions: { terminal?: unknown }[] }[] }[];
    assert.deepEqual(list.filter((a) => a.app === 'claude-code').flatMap((a) => a.agents.flatMap((g) => g.liveSessions)).map((s) => s.terminal), [{ pid: 777, program: 'the-server' }]);
  });
});
