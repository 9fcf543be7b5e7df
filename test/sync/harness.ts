// Shared test-only code for the client-core tests: manual timers on the sandbox's manual clock,
// a counting transport (to know when loopback requests settle), a sandbox world with a computer,
// assistants and an identity file, and a helper that signs a client core in for real.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTransport } from '../../src/api/http';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/api/http';
import type { Clock, TimerHandle, Timers } from '../../src/api/runtime';
import type { Scope } from '../../src/api/schemas';
import { MemorySecretStore } from '../../src/auth/secret-store';
import type { SecretStore } from '../../src/auth/secret-store';
import { startSandbox } from '../../src/sandbox/index';
import type { RunningSandbox } from '../../src/sandbox/index';
import { createClientCore } from '../../src/sync/session';
import type { ClientCoreOptions } from '../../src/sync/session';
import { createServiceClient } from '../../src/sync/service-client';
import type { ServiceClient } from '../../src/sync/service-client';

export interface Logged {
  method: string;
  url: string;
  path: string;
  status: number | 'error';
  headers: Record<string, string>;
  resHeaders: Record<string, string>;
  body?: string;
}

/** Wraps the real transport: logs every exchange and knows what is in flight. */
export class CountingTransport implements HttpTransport {
  readonly log: Logged[] = [];
  private busy = 0;
  private waiting = 0;
  constructor(private readonly inner: HttpTransport = createTransport()) {}

  async send(req: HttpRequest): Promise<HttpResponse> {
    const longPoll = /[?&]wait=[1-9]/.test(req.url);
    if (longPoll) this.waiting++;
    else this.busy++;
    const path = new URL(req.url).pathname;
    try {
      const res = await this.inner.send(req);
      this.log.push({ method: req.method, url: req.url, path, status: res.status, headers: req.headers, resHeaders: res.headers, body: req.body });
      return res;
    } catch (e) {
      this.log.push({ method: req.method, url: req.url, path, status: 'error', headers: req.headers, resHeaders: {}, body: req.body });
      throw e;
    } finally {
      if (longPoll) this.waiting--;
      else this.busy--;
    }
  }

  /** Requests that are not long-polls still running. */
  get inFlight(): number {
    return this.busy;
  }
  get longPolls(): number {
    return this.waiting;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const realDelay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lets loopback work finish: no short request in flight for a few consecutive real ticks. */
export async function settle(transports: CountingTransport[], maxMs = 3000): Promise<void> {
  const until = Date.now() + maxMs;
  let quiet = 0;
  while (Date.now() < until && quiet < 4) {
    await realDelay(3);
    quiet = transports.every((t) => t.inFlight === 0) ? quiet + 1 : 0;
  }
}

/** Timers on the sandbox's manual clock: they fire only when the test advances time. */
export class ManualTimers implements Timers {
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();
  constructor(private readonly sb: RunningSandbox, private readonly settleOn: () => CountingTransport[]) {}

  get clock(): Clock {
    return { now: () => this.sb.clock.now() };
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.queue.set(id, { at: this.sb.clock.now() + Math.max(0, ms), fn });
    return { cancel: () => this.queue.delete(id) };
  }

  get pending(): number {
    return this.queue.size;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting requests settle between. */
  async advance(ms: number): Promise<void> {
    await settle(this.settleOn());
    const target = this.sb.clock.now() + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.queue) if (e[1].at <= target && (!next || e[1].at < next[1].at || (e[1].at === next[1].at && e[0] < next[0]))) next = e;
      if (!next) break;
      const [id, t] = next;
      if (t.at > this.sb.clock.now()) this.sb.advance(t.at - this.sb.clock.now());
      this.queue.delete(id);
      t.fn();
      await settle(this.settleOn());
    }
    if (target > this.sb.clock.now()) this.sb.advance(target - this.sb.clock.now());
    await settle(this.settleOn());
  }

  /** Advances in steps until `done()` holds (or `maxMs` of sandbox time passed). */
  async until(done: () => boolean, stepMs = 1000, maxMs = 120_000): Promise<void> {
    let spent = 0;
    await settle(this.settleOn());
    while (!done() && spent < maxMs) {
      await this.advance(stepMs);
      spent += stepMs;
    }
    if (!done()) throw new Error(`condition not reached within ${maxMs} ms of sandbox time`);
  }
}

export interface TestWorld {
  sb: RunningSandbox;
  url: string;
  machineId: string;
  machineFile: string;
  dir: string;
  assistantId: string;
  agentId: string;
  helperId: string;
  helperAgentId: string;
  transports: CountingTransport[];
  timers: ManualTimers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- control-surface JSON, read loosely in tests
  ctl(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  card(fields?: Record<string, unknown>): Promise<{ id: string; version: number; [k: string]: unknown }>;
  core(o?: Partial<ClientCoreOptions> & { store?: SecretStore }): ReturnType<typeof createClientCore> & { transport: CountingTransport };
  /**
   * A service link of its own (the raw HTTP client) on the sign-in `store` holds, built the way
   * the core builds its own: like another window of the same sign-in.
   */
  link(store: SecretStore): ServiceClient & { transport: CountingTransport };
  close(): Promise<void>;
}

/**
 * `publicUrl`: the address of a forwarder in front of the sandbox (the sandbox names its own port
 * otherwise, never the one a Host header says); the control surface is still reached directly.
 */
export async function makeTestWorld(o: { publicUrl?: string } = {}): Promise<TestWorld> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-core-'));
  // The identity file goes into this world's own folder (the sandbox writes nowhere else).
  const sb = await startSandbox({ port: 0, manualClock: true, workDir: dir, ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}) });
  const url = sb.url;
  const controlUrl = `http://127.0.0.1:${sb.port}`;
  const ctl = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(controlUrl + p, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${sb.controlSecret}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const must = async (method: string, p: string, body?: unknown) => {
    const r = await ctl(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const machineFile = path.join(dir, 'machine.json');
  const machine = await must('POST', '/_sandbox/machines', { name: 'laptop', writeTo: machineFile });
  const assistant = await must('POST', '/_sandbox/assistants', { name: 'api', app: 'claude-code', machineId: machine.id });
  const agent = await must('POST', '/_sandbox/agents', { assistantId: assistant.id, name: 'main' });
  const helper = await must('POST', '/_sandbox/assistants', { name: 'helper', app: 'codex', machineId: machine.id });
  const helperAgent = await must('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'main' });
  const transports: CountingTransport[] = [];
  const timers = new ManualTimers(sb, () => transports);
  const cores: { dispose(): Promise<void> }[] = [];
  let n = 0;
  return {
    sb, url, dir, machineId: machine.id, machineFile, transports, timers, ctl,
    assistantId: assistant.id, agentId: agent.id, helperId: helper.id, helperAgentId: helperAgent.id,
    card: (fields = {}) => must('POST', '/_sandbox/cards', {
      agentId: agent.id, kind: 'choice', title: 'Pick one',
      options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], ...fields,
    }),
    core(o = {}) {
      // A test may bring its own (counting) transport; the core then logs through that one.
      const transport = o.transport instanceof CountingTransport ? o.transport : new CountingTransport(o.transport);
      if (!transports.includes(transport)) transports.push(transport);
      const c = createClientCore({
        baseUrl: url,
        secretStore: o.store ?? new MemorySecretStore(),
        machineFile,
        lockDir: path.join(dir, 'locks'),
        clock: timers.clock,
        timers,
        scope: { kind: 'machine' },
        instanceId: `win-${++n}`,
        random: () => 0.5,
        ...o,
        transport,
      });
      cores.push(c);
      return Object.assign(c, { transport });
    },
    link(store) {
      const transport = new CountingTransport();
      transports.push(transport);
      const link = createServiceClient({
        baseUrl: url, secretStore: store, machineFile, lockDir: path.join(dir, 'locks'),
        clock: timers.clock, timers, logger: { info() {}, warn() {}, error() {} }, random: () => 0.5, transport,
      });
      cores.push({ dispose: () => transport.close() });
      return Object.assign(link, { transport });
    },
    async close() {
      for (const c of cores) await c.dispose().catch(() => undefined);
      await sb.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Signs a core in through the real device flow, approving on the control surface. */
export async function signInCore(
  w: TestWorld,
  core: ReturnType<typeof createClientCore>,
  o: { scopes?: string[]; approve?: boolean; extraScopes?: Scope[] } = {},
): Promise<void> {
  let code: string | undefined;
  const p = core.signIn({ onProgress: (s) => { if (s.step === 'code') code = s.userCode; }, ...(o.extraScopes ? { extraScopes: o.extraScopes } : {}) });
  p.catch(() => undefined);
  for (let i = 0; i < 500 && !code; i++) await realDelay(5);
  if (!code) throw new Error('no user code');
  const r = await w.ctl('POST', '/_sandbox/device/approve', { user_code: code, ...(o.scopes ? { scopes: o.scopes } : {}) });
  if (r.status >= 300) throw new Error(`approve: ${JSON.stringify(r.json)}`);
  let done = false;
  void p.finally(() => { done = true; }).catch(() => undefined);
  await w.timers.until(() => done, 1000, 30_000);
  await p;
  await settle(w.transports);
}

/**
 * Waits (real time) until `pred` holds: for loopback work and lease-file work, never a timing
 * assertion. The bound is generous: on a busy 2-core machine (CI with the other core loaded) that
 * work took over 5 s, and a state that holds returns at once anyway.
 */
export async function eventually(pred: () => boolean, realMs = 30_000): Promise<void> {
  const until = Date.now() + realMs;
  while (!pred()) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 3));
  }
}

