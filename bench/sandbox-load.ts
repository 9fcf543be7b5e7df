// The sandbox's load bench: GET /v1/cards with full DPoP verification over loopback. The sandbox
// runs in a child process (pinned to one core when `taskset` exists); this process makes the load
// from the other core(s). Setup signs in through the real device flow with the client core, then
// every request carries a fresh ES256 proof (own jti, iat, ath) signed here with node:crypto.
// Prints one JSON line: {readsPerSec, p50Ms, p99Ms, requests, errors, concurrency, seconds}.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'undici';
import { MemorySecretStore } from '../src/auth/secret-store';
import { signInSlot } from '../src/auth/sign-in-slot';
import { createClientCore } from '../src/sync/session';

const root = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const CONCURRENCY = Number(process.env.BENCH_LOAD_CONCURRENCY ?? 16);
const CARDS = 20;

interface Server {
  url: string;
  /** Ends the sandbox process; resolves once it has exited (it writes into its work folder until then). */
  stop(): Promise<void>;
  /** CPU microseconds the sandbox process has used so far. */
  cpu(): Promise<number>;
}

function startServer(workDir: string): Promise<Server> {
  const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const node = [process.execPath, ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/acprof'] : []), '--import', 'tsx', path.join(__dirname, 'sandbox-server.ts')];
  const [cmd, ...args] = hasTaskset ? ['taskset', '-c', '0', ...node] : node;
  const child = spawn(cmd!, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, BENCH_SANDBOX_WORK_DIR: workDir } });
  const cpuWaiters: ((n: number) => void)[] = [];
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      for (const m of out.matchAll(/cpu (\d+)\n/g)) cpuWaiters.shift()?.(Number(m[1]));
      out = out.replace(/cpu \d+\n/g, '');
      const m = /listening on (\S+)\ncontrol secret (\S+)\n/.exec(out);
      if (m?.[1] && m[2] && !started) {
        started = true;
        secrets.set(m[1], m[2]);
        resolve({
          url: m[1],
          stop: () => new Promise<void>((r) => {
            if (child.exitCode !== null || child.signalCode !== null) { r(); return; }
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
          cpu: () => new Promise<number>((r) => { cpuWaiters.push(r); child.stdin.write('cpu\n'); }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
  });
}

/** Each started sandbox's control secret, by its address. */
const secrets = new Map<string, string>();

async function ctl(url: string, method: string, p: string, body?: unknown): Promise<{ id: string; [k: string]: unknown }> {
  const res = await fetch(url + p, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets.get(url) ?? ''}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** Signs in with the project's own client core; returns the DPoP private JWK and the access token. */
async function signIn(url: string, dir: string): Promise<{ jwk: Record<string, string>; token: string }> {
  const machineFile = path.join(dir, 'machine.json');
  const machine = await ctl(url, 'POST', '/_sandbox/machines', { name: 'bench', writeTo: machineFile });
  const asst = await ctl(url, 'POST', '/_sandbox/assistants', { name: 'bench', app: 'claude-code', machineId: machine.id });
  const agent = await ctl(url, 'POST', '/_sandbox/agents', { assistantId: asst.id, name: 'main' });
  for (let i = 0; i < CARDS; i++) {
    await ctl(url, 'POST', '/_sandbox/cards', { agentId: agent.id, kind: 'choice', title: `Card ${i}`, options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] });
  }
  const store = new MemorySecretStore();
  const core = createClientCore({ baseUrl: url, secretStore: store, machineFile, lockDir: path.join(dir, 'locks'), scope: { kind: 'machine' } });
  await core.signIn({
    onProgress: (p) => {
      if (p.step === 'code') void ctl(url, 'POST', '/_sandbox/device/approve', { user_code: p.userCode });
    },
  });
  // Where the core keeps this sign-in: keyed by the service and the computer (the identity file's id).
  const identity = JSON.parse(await fs.readFile(machineFile, 'utf8')) as { id: string };
  const slot = signInSlot(url, identity.id);
  const tokens = JSON.parse((await store.get(slot.tokensKey))!) as { accessToken: string };
  const jwk = JSON.parse((await store.get(slot.dpopKeyKey))!) as Record<string, string>;
  await core.dispose();
  return { jwk, token: tokens.accessToken };
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-bench-'));
  const server = await startServer(dir);
  try {
    const { jwk, token } = await signIn(server.url, dir);
    const key = createPrivateKey({ key: jwk, format: 'jwk' });
    const header = b64(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } }));
    const ath = createHash('sha256').update(token).digest('base64url');
    const htu = `${server.url}/v1/cards`;
    // The latest DPoP-Nonce the sandbox handed out (every /v1 answer carries one).
    let nonce: string | undefined;
    const proof = () => {
      const payload = b64(JSON.stringify({ jti: randomUUID(), htm: 'GET', htu, iat: Math.floor(Date.now() / 1000), ath, ...(nonce ? { nonce } : {}) }));
      const sig = sign('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' });
      return `${header}.${payload}.${b64(sig)}`;
    };
    const pool = new Pool(server.url, { connections: CONCURRENCY, pipelining: 1 });
    const latencies: number[] = [];
    let errors = 0;
    let measuring = false;
    let stop = false;
    const one = async () => {
      const t0 = process.hrtime.bigint();
      const res = await pool.request({
        path: '/v1/cards', method: 'GET',
        headers: { authorization: `DPoP ${token}`, dpop: proof(), 'service-version': '2026-10-05', accept: 'application/json' },
      });
      const text = await res.body.text();
      const n = res.headers['dpop-nonce'];
      if (typeof n === 'string') nonce = n;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!measuring) return;
      if (res.statusCode !== 200 || !text.includes('"cards"')) {
        if (errors++ === 0) console.error(`first refusal: ${res.statusCode} ${text.slice(0, 300)}`);
      }
      else latencies.push(ms);
    };
    const worker = async () => {
      while (!stop) {
        await one().catch((e: unknown) => {
          if (measuring && errors++ === 0) console.error(`first failure: ${String(e)}`);
        });
      }
    };
    const workers = Array.from({ length: CONCURRENCY }, worker);
    await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
    const cpu0 = await server.cpu();
    measuring = true;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const elapsed = (Date.now() - t0) / 1000;
    const cpuMs = (await server.cpu() - cpu0) / 1000;
    stop = true;
    await Promise.all(workers);
    await pool.close();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    const out = {
      readsPerSec: Math.round(latencies.length / elapsed), p50Ms: round(pct(50)), p99Ms: round(pct(99)),
      requests: latencies.length, errors, concurrency: CONCURRENCY, seconds: SECONDS, cardsListed: CARDS,
      // The sandbox's own CPU per read, and what one core would serve at that cost (noise-robust).
      sandboxCpuMsPerRead: round(cpuMs / Math.max(1, latencies.length)), sandboxCpuShare: round(cpuMs / 1000 / elapsed),
      readsPerCpuSecond: Math.round(latencies.length / Math.max(0.001, cpuMs / 1000)),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
