// A dead local service (#37): after a sandbox stops, an open window kept calling its port; a probe
// that took the freed port got the person's DPoP proofs. The window's own sandbox is watched by
// its launcher; this is the sandbox of another window or of `npm start`, killed outright
// (SIGKILL: it blanks nothing). A window signed in and syncing against it, its core built as the
// editor builds it (live-build.ts: the transport wrapped by sandbox-alive.ts, from the identity
// file the sandbox wrote), sends nothing to a listener that takes the port the moment the sandbox
// dies, and the address leaves the identity file. On main the same core sent the listener its
// long-poll's reconnects within seconds, each with a DPoP proof and the access token.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { createTransport, type HttpRequest, type HttpResponse, type HttpTransport } from '../../src/api/http';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { createClientCore } from '../../src/sync/session';
import { forgetDeadSandbox, sandboxOf, whileSandboxLives } from '../../src/editor/connection/sandbox-alive';
import { until } from '../kit';

const root = path.resolve(__dirname, '..', '..');

/** Counts the requests handed to it. */
class Tally implements HttpTransport {
  sent = 0;
  constructor(private readonly inner: HttpTransport) {}
  send(req: HttpRequest): Promise<HttpResponse> { this.sent++; return this.inner.send(req); }
  close(): Promise<void> { return this.inner.close(); }
}

/** A sandbox as `npm start` or another window runs it: its own process, its lines read as they come. */
async function sandboxProcess(script: string, dir: string): Promise<{ child: ChildProcess; url: string; secret: string; machineFile: string }> {
  const machineFile = path.join(dir, 'machine.json');
  const child = spawn(process.execPath, [script, '--port', '0', '--demo', '--machine-file', machineFile, '--work', path.join(dir, 'work')], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ASSISTANT_CARDS_HOME: path.join(dir, 'home') },
  });
  const { url, secret } = await new Promise<{ url: string; secret: string }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\ncontrol secret ([A-Za-z0-9_-]+) [^\n]*\ndemo: computer/.exec(buf);
      if (m) resolve({ url: m[1]!, secret: m[2]! });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened: ${buf}`)));
  });
  return { child, url, secret, machineFile };
}

describe('a killed sandbox of another window is not called again (#37)', function () {
  this.timeout(120_000);
  let dir: string;
  let script: string;
  const stops: (() => unknown)[] = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-dead-sandbox-'));
    script = path.join(dir, 'sandbox.js');
    await build({ entryPoints: [path.join(root, 'src/sandbox/main.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'silent' });
  });

  after(async () => {
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('SIGKILLed while the window syncs: a listener that takes its port at once gets no request, and the address leaves the identity file', async () => {
    const sb = await sandboxProcess(script, dir);
    stops.push(() => sb.child.kill('SIGKILL'));
    // The identity file names the process serving the address: what the editor reads.
    const serving = sandboxOf(sb.machineFile, sb.url);
    assert.deepEqual(serving, { pid: sb.child.pid, host: os.hostname() }, 'the sandbox wrote its process beside its address');

    let goneTold = 0;
    let network: Tally | undefined; // what the gate passed on
    const handed = new Tally(whileSandboxLives((beforeConnect) => (network = new Tally(createTransport({ beforeConnect }))), serving, () => {
      goneTold++;
      forgetDeadSandbox(sb.machineFile, sb.url, serving);
    }, 'the local sandbox has ended'));
    assert.ok(network);
    const core = createClientCore({
      baseUrl: sb.url, secretStore: new MemorySecretStore(), machineFile: sb.machineFile,
      lockDir: path.join(dir, 'locks'), scope: { kind: 'machine' }, transport: handed,
    });
    stops.push(() => core.dispose());

    // Signed in for real (the device flow, approved on the control surface), then syncing.
    let code: string | undefined;
    const signedIn = core.signIn({ onProgress: (p) => { if (p.step === 'code') code = p.userCode; } });
    signedIn.catch(() => undefined);
    const userCode = await until('the device code', () => code, 20_000);
    const approve = await fetch(`${sb.url}/_sandbox/device/approve`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sb.secret}` }, body: JSON.stringify({ user_code: userCode }),
    });
    assert.ok(approve.status < 300, await approve.text());
    await signedIn;
    await until('the window online', () => core.state.kind === 'online', 20_000);
    await until('the window\'s first cards read', () => core.cards.list('pending').length > 0, 20_000);

    // Killed outright: nothing of the sandbox blanks its address. A listener takes the port at once.
    const port = Number(new URL(sb.url).port);
    const exited = new Promise((r) => sb.child.once('exit', r));
    sb.child.kill('SIGKILL');
    await exited;
    const reached: string[] = [];
    const probe = http.createServer((req, res) => { reached.push(`${req.method} ${req.url} dpop=${req.headers.dpop ? 'yes' : 'no'}`); res.writeHead(503).end(); });
    await new Promise<void>((resolve, reject) => { probe.once('error', reject); probe.listen(port, '127.0.0.1', resolve); });
    stops.push(() => new Promise((r) => probe.close(r)));
    const networkAtKill = network.sent;
    const handedAtKill = handed.sent;

    // The window goes on as it would (the feed's reconnects, backed off): the gone sandbox is
    // told once, and at least three more requests are made, none of which leaves.
    await until('the window to try three requests since the kill', () => handed.sent - handedAtKill >= 3, 60_000);
    assert.equal(goneTold, 1, 'told once that the sandbox is gone');
    assert.deepEqual(reached, [], 'requests reached the program on the freed port');
    assert.equal(network.sent - networkAtKill, 0, 'requests went to the network after the kill');
    assert.equal(core.state.kind, 'offline');
    const file = JSON.parse(fs.readFileSync(sb.machineFile, 'utf8')) as { baseUrl: string; sandbox?: unknown };
    assert.equal(file.baseUrl, '', 'the address left the identity file');
    assert.equal(file.sandbox, undefined);

    // The listener does take what reaches the port (the assertions above could see a request).
    await fetch(`${sb.url}/v1/me`).then((r) => r.text());
    assert.deepEqual(reached, ['GET /v1/me dpop=no']);
  });

  it('a sandbox that is alive is called; a file naming no process (a real service, an older sandbox) is not gated', () => {
    let told = 0;
    const calls: string[] = [];
    const inner: HttpTransport = { send: async (req) => { calls.push(req.url); return { status: 200, headers: {}, text: '' }; }, close: async () => undefined };
    const alive = whileSandboxLives(() => inner, { pid: process.pid, host: os.hostname() }, () => { told++; }, 'the local sandbox has ended');
    return alive.send({ method: 'GET', url: 'http://127.0.0.1:1/v1/me', headers: {} }).then(() => {
      assert.deepEqual(calls, ['http://127.0.0.1:1/v1/me']);
      assert.equal(told, 0);
      const realService = path.join(dir, 'real.json');
      fs.writeFileSync(realService, JSON.stringify({ id: 'mch_1', name: 'x', baseUrl: 'http://127.0.0.1:1', privateJwk: {} }));
      assert.equal(sandboxOf(realService, 'http://127.0.0.1:1'), undefined);
      const elsewhere = path.join(dir, 'elsewhere.json');
      fs.writeFileSync(elsewhere, JSON.stringify({ id: 'mch_1', name: 'x', baseUrl: 'http://127.0.0.1:1', madeBy: 'sandbox', sandbox: { pid: 1, host: `not-${os.hostname()}` } }));
      assert.equal(sandboxOf(elsewhere, 'http://127.0.0.1:1'), undefined, 'a pid of another computer means nothing here');
    });
  });
});
