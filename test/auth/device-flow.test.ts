import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OAuthRefusalError } from '../../src/api/errors';
import { silentLogger } from '../../src/api/runtime';
import { runDeviceFlow } from '../../src/auth/device-flow';
import type { DeviceFlowProgress } from '../../src/auth/device-flow';
import { DpopKey } from '../../src/auth/dpop';
import { DeviceFlowError, NotSetUpError } from '../../src/auth/errors';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { signInSlot } from '../../src/auth/sign-in-slot';
import { DEFAULT_EXPIRES_IN_SECONDS } from '../../src/auth/token-set';
import type { OAuthEndpoints } from '../../src/auth/oauth';
import { ManualClock } from '../kit/clock';
import { until } from '../kit/until';
import { makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';

describe('auth: device flow against the sandbox', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('signs in: code shown, polls at the interval, the token endpoint nonce is fetched first', async () => {
    const core = w.core();
    await signInCore(w, core);
    assert.equal(core.state.kind, 'online');
    const log = core.transport.log;
    const device = log.find((l) => l.path === '/oauth/device')!;
    assert.ok(device.body!.includes('machine_attestation='));
    assert.ok(device.body!.includes('resource=' + encodeURIComponent(`${w.url}/v1`)));
    const tokenCalls = log.filter((l) => l.path === '/oauth/token');
    assert.ok(tokenCalls.length >= 2);
    assert.equal(tokenCalls[0]!.status, 400, 'no nonce yet: use_dpop_nonce');
    assert.equal(tokenCalls.at(-1)!.status, 200);
    assert.ok(tokenCalls.every((l) => l.headers.dpop), 'a DPoP proof every time');
    if (core.state.kind === 'online') {
      assert.equal(core.state.me.grant.dpop, true);
      assert.equal(core.state.me.grant.machine?.id, w.machineId);
    }
  });

  it('a lean service (no interval, no verification_uri_complete, no expires_in): signed in, polling every 5 s, the token good for 900 s', async () => {
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/device', omit: ['interval', 'verification_uri_complete'] });
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/token', omit: ['expires_in'], times: 50 });
    const store = new MemorySecretStore();
    const core = w.core({ store });
    const polledAt: number[] = [];
    const send = core.transport.send.bind(core.transport);
    core.transport.send = (req) => {
      if (req.url.endsWith('/oauth/token')) polledAt.push(w.sb.clock.now());
      return send(req);
    };
    let code: Extract<DeviceFlowProgress, { step: 'code' }> | undefined;
    const waits: number[] = [];
    const p = core.signIn({ onProgress: (s) => {
      if (s.step === 'code') code = s;
      if (s.step === 'waiting') waits.push(s.intervalSeconds);
    } });
    p.catch(() => undefined);
    code = await until('the code shown', () => code, 5_000, 5);
    assert.equal(code.verificationUriComplete, undefined);
    assert.equal(code.verificationUri, `${w.url}/device`, 'the plain page, where the person types the code');
    const state = core.state;
    assert.ok(state.kind === 'signing-in' && state.verificationUriComplete === undefined && state.userCode === code.userCode);
    const start = w.sb.clock.now();
    // Two polls, both pending. The clock rests at each poll's time (three settles) before it moves
    // on: a poll signs its proof on the thread pool first, which a busy machine can hold past one
    // settle's quiet ticks (a poll then went out at 12 s, not 10).
    await w.advance(5_000);
    await w.advance(5_000);
    await w.advance(2_000);
    await w.ctl('POST', '/_sandbox/device/approve', { user_code: code.userCode });
    let done = false;
    void p.finally(() => (done = true)).catch(() => undefined);
    await w.advanceUntil(() => done, 1000, 30_000);
    await p;
    assert.equal(core.state.kind, 'online');
    assert.deepEqual(waits.slice(0, 3), [5, 5, 5], 'RFC 8628: 5 s when the service names no interval');
    // The first poll meets use_dpop_nonce and is repeated at once: one poll per distinct time.
    assert.deepEqual([...new Set(polledAt)].map((t) => t - start), [5000, 10_000, 15_000]);
    const stored = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey))!) as { expiresAt: number };
    assert.equal(stored.expiresAt, start + 15_000 + DEFAULT_EXPIRES_IN_SECONDS * 1000, 'no expires_in: the spec\'s 15 minutes');
    await settle(w.transports);
  });

  it('a denied sign-in ends with access_denied and the state goes back to signed out', async () => {
    const core = w.core();
    let code: string | undefined;
    const p = core.signIn({ onProgress: (s) => { if (s.step === 'code') code = s.userCode; } });
    p.catch(() => undefined);
    const userCode = await until('the code shown', () => code, 5_000, 5);
    assert.equal(core.state.kind, 'signing-in');
    await w.ctl('POST', '/_sandbox/device/deny', { user_code: userCode });
    let done = false;
    void p.finally(() => (done = true)).catch(() => undefined);
    await w.advanceUntil(() => done, 1000, 20_000);
    await assert.rejects(p, (e: unknown) => e instanceof DeviceFlowError && e.reason === 'access_denied');
    assert.equal(core.state.kind, 'signed-out');
  });

  it('a code nobody allows expires (600 s on the sandbox clock)', async function () {
    this.timeout(120_000); // ~200 polls over loopback, each settled in real time
    const core = w.core();
    const p = core.signIn();
    p.catch(() => undefined);
    let done = false;
    void p.finally(() => (done = true)).catch(() => undefined);
    // Steps of one poll interval: a proof signed while the machine is busy must not fall a whole
    // 60 s iat window behind the sandbox clock before it is sent (it did with 30 s steps).
    await w.advanceUntil(() => done, 5_000, 700_000);
    await assert.rejects(p, (e: unknown) => e instanceof DeviceFlowError && e.reason === 'expired_token');
    const polls = core.transport.log.filter((l) => l.path === '/oauth/token' && l.status === 400);
    assert.ok(polls.length > 10 && polls.length < 400, `polled ${polls.length} times`);
  });

  it('cancelling stops the polling at once', async () => {
    const core = w.core();
    const ac = new AbortController();
    let code: string | undefined;
    const p = core.signIn({ signal: ac.signal, onProgress: (s) => { if (s.step === 'code') code = s.userCode; } });
    p.catch(() => undefined);
    await until('the code shown', () => code, 5_000, 5);
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof DeviceFlowError && e.reason === 'cancelled');
    const before = core.transport.log.length;
    await w.advance(60_000);
    assert.equal(core.transport.log.filter((l) => l.path.startsWith('/oauth')).length, core.transport.log.slice(0, before).filter((l) => l.path.startsWith('/oauth')).length);
  });

  it('no identity file: NotSetUpError "missing" and state not-set-up, nothing sent', async () => {
    const core = w.core({ machineFile: path.join(w.dir, 'absent.json') });
    await assert.rejects(core.signIn(), (e: unknown) => e instanceof NotSetUpError && e.reason === 'missing');
    assert.equal(core.state.kind, 'not-set-up');
    assert.equal(core.transport.log.length, 0);
  });

  it('a computer the service does not know: NotSetUpError "rejected" with the service reason', async () => {
    const other = path.join(w.dir, 'other.json');
    const { privateJwk } = await DpopKey.generate();
    await fs.writeFile(other, JSON.stringify({ id: 'mch_unknown-1', name: 'ghost', baseUrl: w.url, privateJwk }));
    const core = w.core({ machineFile: other });
    await assert.rejects(core.signIn(), (e: unknown) => e instanceof NotSetUpError && e.reason === 'rejected');
    assert.equal(core.state.kind, 'not-set-up');
    await settle(w.transports);
  });
});

describe('auth: device flow polling rules (scripted endpoints)', () => {
  async function run(answers: (string | 'ok')[], o: { abortAfter?: number } = {}) {
    // Between steps the scripted answers' promise chains run (one turn of the event loop).
    const t = new ManualClock({ start: 0, settle: () => new Promise<void>((r) => setImmediate(r)) });
    const polledAt: number[] = [];
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-df-'));
    const { privateJwk, key } = await DpopKey.generate();
    const machineFile = path.join(dir, 'm.json');
    await fs.writeFile(machineFile, JSON.stringify({ id: 'mch_1', name: 'm', baseUrl: 'http://svc', privateJwk }));
    const endpoints = {
      startDevice: async () => ({ device_code: 'dc', user_code: 'UC', verification_uri: 'v', verification_uri_complete: 'vc', expires_in: 600, interval: 3 }),
      pollDevice: async () => {
        polledAt.push(t.now());
        const a = answers.shift();
        if (a === 'ok' || a === undefined) return { access_token: 'a', token_type: 'DPoP', expires_in: 900, refresh_token: 'r' };
        throw new OAuthRefusalError(400, a, undefined, 'http://svc/oauth/token');
      },
    } as unknown as OAuthEndpoints;
    const progress: DeviceFlowProgress[] = [];
    const ac = new AbortController();
    const p = runDeviceFlow({ baseUrl: 'http://svc', endpoints, key, machineFile, scopes: ['cards:read'], clock: t, timers: t, logger: silentLogger, onProgress: (x) => progress.push(x), signal: ac.signal });
    let done = false;
    p.then(() => (done = true), () => (done = true));
    await t.runTimersUntil(() => {
      if (o.abortAfter !== undefined && polledAt.length >= o.abortAfter) ac.abort();
      return done;
    }, { what: 'the device flow ended', maxMs: 3_000_000 });
    return { p, polledAt, progress };
  }

  it('polls every interval; slow_down adds 5 s for the rest of the flow', async () => {
    const { p, polledAt } = await run(['authorization_pending', 'slow_down', 'authorization_pending', 'ok']);
    await p;
    const gaps = polledAt.slice(1).map((at, i) => at - polledAt[i]!);
    assert.deepEqual(gaps, [3000, 8000, 8000]);
  });

  it('expired_token and access_denied from the service end the flow with their reason', async () => {
    await assert.rejects((await run(['authorization_pending', 'expired_token'])).p, (e: unknown) => e instanceof DeviceFlowError && e.reason === 'expired_token');
    await assert.rejects((await run(['access_denied'])).p, (e: unknown) => e instanceof DeviceFlowError && e.reason === 'access_denied');
  });

  it('reports the code with both verification addresses first', async () => {
    const { p, progress } = await run(['ok']);
    await p;
    assert.deepEqual(progress[0], { step: 'code', userCode: 'UC', verificationUri: 'v', verificationUriComplete: 'vc', expiresAt: progress[0]!.step === 'code' ? progress[0]!.expiresAt : -1 });
    assert.ok(progress[0]!.step === 'code' && progress[0]!.expiresAt >= 600_000);
    assert.equal(progress.at(-1)!.step, 'approved');
  });
});
