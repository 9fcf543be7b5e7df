// The one plain-Node world: an in-process sandbox on the kit's manual clock, this computer (an
// identity file in the world's own folder, an assistant 'api' and a helper 'helper', each with an
// agent), a person signed in over HTTP (`me`, device flow + DPoP), and client cores built on the
// same computer and clock, signed in for real through `signInCore`.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTransport } from '../../src/api/http';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/api/http';
import type { Scope } from '../../src/api/schemas';
import { DpopKey } from '../../src/auth/dpop';
import { MemorySecretStore } from '../../src/auth/secret-store';
import type { SecretStore } from '../../src/auth/secret-store';
import type { RunningSandbox } from '../../src/sandbox/index';
import { createClientCore } from '../../src/sync/session';
import type { ClientCoreOptions } from '../../src/sync/session';
import { createServiceClient } from '../../src/sync/service-client';
import type { ServiceClient } from '../../src/sync/service-client';
import { call, signIn, startSandbox, type Answer, type Machine, type SignedIn, type SignInOptions } from '../sandbox/helpers';
import { ManualClock } from './clock';
import { setUpComputer } from './computer';
import { until } from './until';

export const ALL_SCOPES = [
  'cards:read', 'cards:answer', 'cards:reply', 'cards:later', 'cards:delegate', 'assistants:read', 'presence:desk',
];

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

/**
 * DPoP proofs being signed now, by any client in this process. A request's proof is signed (on
 * the thread pool) before the request is sent, with the clock's time as its `iat`: a clock moved
 * in between makes a request the service refuses for its time (issue #36: a proof 61 s old after
 * `advance(2 min)` on a loaded machine). So a proof being signed is work in flight: `settle` waits
 * for it, and then for its request. Counted at the one place proofs are made (`DpopKey.proof`,
 * for /v1 and the token endpoint alike); the count is all the wrapper adds.
 */
let proofsSigning = 0;
const COUNTED = Symbol.for('assistant-cards.kit.countedProof');
{
  const proto = DpopKey.prototype as DpopKey & { [COUNTED]?: true };
  if (!proto[COUNTED]) {
    const sign = proto.proof;
    proto.proof = async function counted(this: DpopKey, input) {
      proofsSigning++;
      try {
        return await sign.call(this, input);
      } finally {
        proofsSigning--;
      }
    };
    proto[COUNTED] = true;
  }
}

/** The bound on a proof being signed: past it, `settle` fails and says so (a proof never waits on the clock). */
const PROOF_BOUND_MS = 30_000;

/**
 * Lets loopback work finish: no DPoP proof being signed and no short request in flight, for a few
 * consecutive real ticks. A request still in flight after `maxMs` is let be (a delayMs fault holds
 * its answer until the clock moves); a proof still being signed is waited for up to 30 s, then
 * named in the failure.
 */
export async function settle(transports: CountingTransport[], maxMs = 3000): Promise<void> {
  if (transports.length === 0) return; // nothing of a client's to finish (a world with no core yet)
  const start = Date.now();
  let quiet = 0;
  for (;;) {
    await realDelay(3);
    const signing = proofsSigning;
    quiet = signing === 0 && transports.every((t) => t.inFlight === 0) ? quiet + 1 : 0;
    if (quiet >= 4) return;
    const spent = Date.now() - start;
    if (signing === 0 && spent >= maxMs) return;
    if (spent >= PROOF_BOUND_MS) throw new Error(`settle: ${signing} DPoP proof(s) still being signed after ${PROOF_BOUND_MS} ms; the clock was not moved`);
  }
}

export interface World {
  sb: RunningSandbox;
  url: string;
  /** This computer (its private key too), its identity file in `dir`. */
  machine: Machine;
  machineId: string;
  machineFile: string;
  dir: string;
  assistantId: string;
  agentId: string;
  /** A second assistant on the same computer (a helper). */
  helperId: string;
  helperAgentId: string;
  /** The sandbox's time; the cores' Clock and Timers. `sb.advance` moves only the service's side (no timer fires). */
  clock: ManualClock;
  /** Every core's and link's transport: what `advance` lets settle. */
  transports: CountingTransport[];
  /** Signed in over HTTP on this computer with every machine scope (unless made with `{ me: false }`). */
  me: SignedIn;
  ctl(method: string, path: string, body?: unknown): Promise<Answer>;
  card(fields?: Record<string, unknown>): Promise<{ id: string; version: number; [k: string]: unknown }>;
  /** Moves the clock, firing the cores' due timers with loopback work settled between; keeps `me` signed in across long jumps. */
  advance(ms: number): Promise<void>;
  /** `advance(stepMs)` until `done()` holds (at most `maxMs` of clock time). */
  advanceUntil(done: () => boolean, stepMs?: number, maxMs?: number): Promise<void>;
  /** Resolves once the sandbox holds a response back by a delayMs fault (its work done, its finish waiting). */
  held(): Promise<void>;
  /**
   * Resolves once a long poll waits in the sandbox. A request the client sent may not have reached
   * it yet: a clock moved before then ends nothing, and the poll waits its 25 s in real time.
   */
  pollWaiting(): Promise<void>;
  /** Another HTTP sign-in on the sandbox's clock. */
  signIn(opts?: SignInOptions): Promise<SignedIn>;
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
 * `me: false`: no HTTP sign-in (the client-core tests sign their cores in, and count grants).
 */
export async function makeWorld(o: { publicUrl?: string; me?: boolean } = {}): Promise<World> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-world-'));
  // The identity file goes into this world's own folder (the sandbox writes nowhere else).
  const sb = await startSandbox({ port: 0, manualClock: true, workDir: dir, ...(o.publicUrl ? { publicUrl: o.publicUrl } : {}) });
  const url = sb.url;
  const controlUrl = `http://127.0.0.1:${sb.port}`;
  // The helpers' `call` sends this sandbox's control secret (its startSandbox noted it).
  const ctl = (method: string, p: string, body?: unknown): Promise<Answer> => call(method, controlUrl + p, body);
  const must = async (method: string, p: string, body?: unknown) => {
    const r = await ctl(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
    return r.json;
  };
  const machineFile = path.join(dir, 'machine.json');
  const computer = await setUpComputer(must, {
    name: 'laptop', writeTo: machineFile,
    assistants: [{ name: 'api', app: 'claude-code' }, { name: 'helper', app: 'codex' }],
  });
  const [assistant, helper] = computer.assistants as [{ id: string; agentId: string }, { id: string; agentId: string }];
  const machine: Machine = { id: computer.machine.id, name: computer.machine.name, privateJwk: computer.machine.privateJwk };
  const transports: CountingTransport[] = [];
  const clock = new ManualClock({ time: sb.clock, settle: () => settle(transports) });
  const now = () => clock.now();
  const me = o.me === false ? undefined : await signIn(url, { machine, scopes: ALL_SCOPES, now });
  const cores: { dispose(): Promise<void> }[] = [];
  let n = 0;
  let sinceRefresh = 0;
  return {
    sb, url, dir, machine, machineId: machine.id, machineFile, transports, clock, ctl,
    assistantId: assistant.id, agentId: assistant.agentId, helperId: helper.id, helperAgentId: helper.agentId,
    get me(): SignedIn {
      if (!me) throw new Error('this world was made without an HTTP sign-in ({ me: false })');
      return me;
    },
    card: (fields = {}) => must('POST', '/_sandbox/cards', {
      agentId: assistant.agentId, kind: 'choice', title: 'Pick one',
      options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], ...fields,
    }),
    async advance(ms) {
      await clock.advanceSettled(ms);
      // Access tokens live 15 minutes: keep the person signed in across long jumps.
      sinceRefresh += ms;
      if (me && sinceRefresh >= 10 * 60_000) {
        sinceRefresh = 0;
        const r = await me.refresh();
        if (r.status !== 200) throw new Error(`refresh: ${r.status} ${r.text}`);
      }
    },
    advanceUntil: (done, stepMs, maxMs) => clock.advanceUntil(done, stepMs, maxMs),
    held: async () => { await until('a response held by a delayMs fault', () => sb.sandbox.faults.holding > 0, 20_000, 2); },
    pollWaiting: async () => { await until('a long poll waiting in the sandbox', () => sb.sandbox.feed.listening > 0, 20_000, 2); },
    signIn: (opts = {}) => signIn(url, { now, ...opts }),
    core(co = {}) {
      // A test may bring its own (counting) transport; the core then logs through that one.
      const transport = co.transport instanceof CountingTransport ? co.transport : new CountingTransport(co.transport);
      if (!transports.includes(transport)) transports.push(transport);
      const c = createClientCore({
        baseUrl: url,
        secretStore: co.store ?? new MemorySecretStore(),
        machineFile,
        lockDir: path.join(dir, 'locks'),
        clock,
        timers: clock,
        scope: { kind: 'machine' },
        instanceId: `win-${++n}`,
        random: () => 0.5,
        ...co,
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
        clock, timers: clock, logger: { info() {}, warn() {}, error() {} }, random: () => 0.5, transport,
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
  w: World,
  core: ReturnType<typeof createClientCore>,
  o: { scopes?: string[]; approve?: boolean; extraScopes?: Scope[] } = {},
): Promise<void> {
  // The code is the state waited for: it comes after a key, proofs and a request (in a bench child
  // on a busy machine that outlasted 2.5 s, busy run of 34af8e0), so a bound of 30 s; a sign-in that
  // fails first fails this wait with its own error, at once.
  let p!: Promise<unknown>;
  const userCode = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out waiting for the user code (30 s)')), 30_000);
    p = core.signIn({ onProgress: (s) => { if (s.step === 'code') { clearTimeout(timer); resolve(s.userCode); } }, ...(o.extraScopes ? { extraScopes: o.extraScopes } : {}) });
    p.catch((e: unknown) => { clearTimeout(timer); reject(e instanceof Error ? e : new Error(String(e))); });
  });
  const r = await w.ctl('POST', '/_sandbox/device/approve', { user_code: userCode, ...(o.scopes ? { scopes: o.scopes } : {}) });
  if (r.status >= 300) throw new Error(`approve: ${JSON.stringify(r.json)}`);
  let done = false;
  void p.finally(() => { done = true; }).catch(() => undefined);
  await w.advanceUntil(() => done, 1000, 30_000);
  await p;
  await settle(w.transports);
}

let keyCount = 0;
/** A fresh Idempotency-Key. */
export function key(): string {
  return `press-${process.pid}-${++keyCount}-${Math.random().toString(36).slice(2)}`;
}

/** Answer with a fresh Idempotency-Key. */
export function answer(me: SignedIn, id: string, body: Record<string, unknown>, k = key()): Promise<Answer> {
  return me.request('POST', `/v1/cards/${id}/answer`, { body, headers: { 'idempotency-key': k } });
}
