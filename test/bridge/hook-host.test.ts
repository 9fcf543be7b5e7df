// The hook host (src/bridge/hook-host.ts) with the launcher Connect installs, on Linux, against a
// real sandbox: an event with no host runs in `bridge.js hook` and starts one; the next events go
// to the host by curl and do exactly what the hook would (the card, the decision printed, the
// CLI's terminal and environment); a launcher killed while its card waits withdraws the card; a
// host that cannot run an event (another or a changed bridge.js, a dead socket) is passed by.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { RunningSandbox } from '../../src/sandbox';
import { hookHostSocket, hostAnswers, serveHooks } from '../../src/bridge/hook-host';
import { parseEnviron } from '../../src/bridge/hook-process';
import { installHook } from '../../src/bridge/install';
import { processGone } from '../../src/bridge/process-alive';
import { setHold, signIn, startSandbox, type SignedIn, type WireCard } from '../sandbox/helpers';
import { until } from '../kit/until';
import { hookHostRuns, hookHostStatus, startHookHost } from './hook-host-status';

const root = path.resolve(__dirname, '..', '..');

describe('parseEnviron', () => {
  it('reads NUL-separated NAME=value entries; a value may hold "=" and be empty', () => {
    assert.deepEqual(parseEnviron(Buffer.from('A=1\0B=x=y\0EMPTY=\0\0noequals\0')), { A: '1', B: 'x=y', EMPTY: '' });
  });
});

describe('serveHooks: the host\'s own end (Linux)', function () {
  let home: string;
  beforeEach(function () {
    if (process.platform !== 'linux') this.skip();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'hh-idle-'));
  });
  afterEach(() => { if (home) fs.rmSync(home, { recursive: true, force: true }); });
  const serve = (idleMs: number) => serveHooks({
    home, bridgeFile: __filename, idleMs, servesEnv: () => true, runEvent: () => Promise.resolve(''),
  });

  it('idle for its idleMs: it stops, removes its socket, and a second host may serve; one serving keeps a second from starting', async () => {
    const first = await serve(300);
    assert.ok(first, 'the first host serves');
    assert.equal(await serve(300), undefined, 'a second one sees it answer and does not start');
    await first.closed;
    assert.equal(fs.existsSync(first.socket), false, 'its socket removed');
    const next = await serve(60_000);
    assert.ok(next && (await hostAnswers(next.socket)));
    await next.close();
    assert.equal(await hostAnswers(next.socket), false);
  });
});

describe('the hook host, through the launcher (Linux)', function () {
  this.timeout(60_000);
  let dir: string;
  let home: string;
  let launcher: string;
  let bridge: string;
  let sb: RunningSandbox;
  let person: SignedIn;
  const running = new Set<ChildProcess>();

  before(async function () {
    if (!hookHostRuns()) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hh-'));
    bridge = path.join(dir, 'dist', 'bridge.js');
    const { builtinsOnce } = await import('../../scripts/builtins-once.mjs');
    await esbuild.build({
      entryPoints: [path.join(root, 'src/bridge/main.ts')], outfile: bridge,
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error', plugins: [builtinsOnce],
    });
  });
  beforeEach(async () => {
    home = fs.mkdtempSync(path.join(dir, 'h'));
    launcher = (await installHook({ binDir: path.join(home, 'bin'), runtime: process.execPath, version: 'test', platform: process.platform, bridgeSource: bridge })).launcher;
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
    await setHold(sb, 0);
    fs.writeFileSync(path.join(home, 'local-service.json'), JSON.stringify({ url: sb.url, askKey: sb.askKey, pid: process.pid }), { mode: 0o600 });
  });
  afterEach(async () => {
    for (const c of running) c.kill('SIGKILL');
    running.clear();
    const host = await status().catch(() => undefined);
    if (host) process.kill(host.pid, 'SIGTERM');
    await sb?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  const socket = () => hookHostSocket(home);
  /** The host's own account: its pid and how many events it ran. */
  const status = async (): Promise<{ pid: number; served: number }> => {
    const s = hookHostStatus(home);
    if (!s) throw new Error('no hook host answers');
    return s;
  };
  /** The launcher as a CLI runs it (`sh -c`, or itself: `direct`), in the CLI's environment. */
  const launch = (args: string, input: string, env: Record<string, string> = {}, direct = false) => {
    const child = spawn(direct ? launcher : '/bin/sh', direct ? args.split(' ') : ['-c', `'${launcher}' ${args}`], {
      env: { PATH: process.env.PATH!, HOME: home, ASSISTANT_CARDS_HOME: home, TERM_PROGRAM: 'vscode', ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.stdin.end(input);
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => { running.delete(child); resolve({ code, stdout, stderr }); }));
    return { child, done };
  };
  const event = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: 'sess-h', cwd: '/home/dev/shop', hook_event_name: name, ...extra });
  const bash = (command: string) => event('PermissionRequest', { tool_name: 'Bash', tool_input: { command }, permission_suggestions: [] });
  const open = async (): Promise<WireCard[]> => ((await person.request('GET', '/v1/cards?whole=3')).json.cards as WireCard[]).filter((c) => c.kind === 'approval');
  const cardById = async (id: string): Promise<WireCard> => (await person.request('GET', `/v1/cards/${id}`)).json.card as WireCard;
  const approve = async (id: string) => {
    const c = await cardById(id);
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, approved: true }, headers: { 'idempotency-key': `k-${id}` } });
    assert.equal(r.status, 200, r.text);
  };
  const liveTerminal = async () => ((await person.request('GET', '/v1/assistants')).json.assistants as { app: string; agents: { liveSessions: { appSessionId: string; terminal?: { pid?: number; program?: string } }[] }[] }[])
    .find((a) => a.app === 'claude-code')?.agents.flatMap((g) => g.liveSessions).find((s) => s.appSessionId === 'sess-h')?.terminal;
  /** A permission through the launcher, approved by the person: what the launcher printed. */
  const approved = async (command: string) => {
    const before = new Set((await open()).map((c) => c.id));
    const hook = launch('hook claude-code --wait 20', bash(command));
    const c = await until(`the card for ${command}`, async () => (await open()).find((x) => !before.has(x.id)), 15_000);
    assert.match(c.title, new RegExp(command));
    await approve(c.id);
    return hook.done;
  };

  it('no host: the event runs in bridge.js hook, which starts one; the next run in it, with the same card, decision and terminal', async () => {
    assert.equal(fs.existsSync(socket()), false);
    const first = await launch('hook claude-code', event('SessionStart', { source: 'startup' })).done;
    assert.deepEqual([first.code, first.stdout], [0, '']);
    const byHook = await liveTerminal();
    assert.equal(byHook?.program, 'vscode');
    await until('the host started by that hook answers', () => hostAnswers(socket()), 15_000);
    assert.equal((await status()).served, 0);

    const printed = await approved('ls -la');
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(JSON.parse(printed.stdout), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    assert.equal((await status()).served, 1, 'the host ran it');
    // The host read the launcher's process: the same terminal and program as the hook found itself.
    assert.deepEqual(await liveTerminal(), byHook);
    const mode = fs.statSync(path.dirname(socket())).mode & 0o777;
    assert.equal(mode, 0o700, 'the socket\'s folder is this user\'s alone');
  });

  it('the launcher killed while its card waits (the CLI\'s hook timeout): the host withdraws the card', async () => {
    await startHookHost(home);
    const hook = launch('hook claude-code --wait 30', bash('sleep 100'), {}, true);
    const c = await until('the card', async () => (await open()).find((x) => x.status === 'pending'), 15_000);
    assert.equal((await status()).served, 1);
    hook.child.kill('SIGTERM'); // the launcher only (its curl lives on), as a CLI that kills its hook's process
    await hook.done;
    const withdrawn = await until('withdrawn', async () => { const x = await cardById(c.id); return x.status !== 'pending' ? x : undefined; }, 10_000);
    assert.notEqual(withdrawn.status, 'pending');
  });

  it('a host for a bridge.js that changed refuses the event and stops; the launcher runs it itself and a new host starts', async () => {
    await startHookHost(home);
    const old = (await status()).pid;
    // An update writes bridge.js again (install.ts: a new file renamed over it).
    const text = fs.readFileSync(path.join(home, 'bin', 'bridge.js'));
    fs.rmSync(path.join(home, 'bin', 'bridge.js'));
    fs.writeFileSync(path.join(home, 'bin', 'bridge.js'), text);
    const printed = await approved('npm test');
    assert.match(printed.stdout, /"behavior":"allow"/);
    await until('the old host gone', () => processGone(old), 15_000);
    await until('a new host', async () => (await hostAnswers(socket())) && (await status()).pid !== old, 15_000);
  });

  it('a socket another user owns is not used: the launcher runs the event itself', async function () {
    await startHookHost(home);
    try { fs.lchownSync(socket(), 65534, 65534); } catch { this.skip(); } // only root may give a file away
    const printed = await approved('git status');
    assert.match(printed.stdout, /"behavior":"allow"/);
    assert.equal((await status()).served, 0, 'the host ran nothing');
  });

  it('a socket file no host listens on (a host killed): the launcher runs the event itself', async () => {
    await startHookHost(home);
    process.kill((await status()).pid, 'SIGKILL');
    await until('the host gone', async () => !(await hostAnswers(socket())), 5_000);
    assert.equal(fs.existsSync(socket()), true, 'its socket file stays behind');
    const printed = await approved('make');
    assert.match(printed.stdout, /"behavior":"allow"/);
  });
});
