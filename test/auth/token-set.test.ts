import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ApiClient } from '../../src/api/client';
import { NetworkError, OAuthRefusalError } from '../../src/api/errors';
import { neverSent } from '../../src/api/http';
import type { HttpRequest } from '../../src/api/http';
import { DpopKey } from '../../src/auth/dpop';
import { SignedOutError, TokenOriginError } from '../../src/auth/errors';
import type { OAuthEndpoints } from '../../src/auth/oauth';
import { FileSecretStore, MemorySecretStore } from '../../src/auth/secret-store';
import { signInSlot } from '../../src/auth/sign-in-slot';
import { RENEWAL_LOST, TokenSet } from '../../src/auth/token-set';
import { makeWorld, ManualClock, settle, signInCore } from '../kit';
import { moveTo } from '../kit/clocks';
import type { World } from '../kit';

const MIN = 60_000;

function runChild(args: string[]) {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(__dirname, 'refresh-child.ts'), ...args], { cwd: path.join(__dirname, '../..'), stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  const waiters: (() => void)[] = [];
  let exited: string | undefined;
  // 'close', not 'exit': its last lines may still be on their way when it exits.
  child.on('close', (code, signal) => {
    exited = `refresh-child exited (${code ?? signal}) after ${lines.length} line(s)`;
    waiters.splice(0).forEach((w) => w());
  });
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
      waiters.splice(0).forEach((w) => w());
    }
  });
  // Waits for the child's n-th line of output, woken by each line; the child's exit ends the wait.
  const line = async (n: number) => {
    while (lines.length < n) {
      if (exited) throw new Error(`waited for line ${n} of refresh-child's output: ${exited}`);
      await new Promise<void>((r) => waiters.push(r));
    }
    return lines[n - 1]!;
  };
  return { child, line };
}

describe('auth: token set against the sandbox', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('refreshes before expiry; the rotated pair is stored before the new access token is used', async () => {
    const store = new MemorySecretStore();
    const core = w.core({ store });
    // Every /v1 request must carry the access token the store holds at that moment.
    const inner = core.transport.send.bind(core.transport);
    const mismatches: string[] = [];
    core.transport.send = async (req) => {
      if (req.url.includes('/v1/')) {
        const stored = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey)) ?? '{}');
        if (req.headers.authorization !== `DPoP ${stored.accessToken}`) mismatches.push(req.url);
      }
      return inner(req);
    };
    await signInCore(w, core);
    const first = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey))!);
    await w.advance(14 * MIN);
    await core.cards.refresh();
    await settle(w.transports);
    const second = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey))!);
    assert.notEqual(second.refreshToken, first.refreshToken, 'rotated');
    assert.notEqual(second.accessToken, first.accessToken);
    const refreshes = core.transport.log.filter((l) => l.path === '/oauth/token' && l.body?.includes('grant_type=refresh_token') && l.status === 200);
    assert.equal(refreshes.length, 1, 'one refresh, however many requests wanted a token');
    assert.deepEqual(mismatches, []);
    assert.equal(core.state.kind, 'online');
    await w.advance(30 * MIN); // and again, twice more
    await core.cards.refresh();
    assert.equal(core.state.kind, 'online');
  });

  it('the token endpoint and /v1 with nonces of their own (RFC 9449 section 9): one extra try per endpoint class, not one per switch', async () => {
    assert.equal((await w.ctl('POST', '/_sandbox/dpop', { nonces: 'split' })).status, 200);
    const store = new MemorySecretStore();
    const core = w.core({ store });
    await signInCore(w, core);
    await core.dispose(); // the sign-in stays in the store; a fresh link (its own nonces) uses it
    const link = w.link(store);
    const tokens = await link.tokenSet();
    assert.ok(await tokens.load());
    for (let round = 0; round < 3; round++) {
      await link.api.me();
      await tokens.refresh(await tokens.accessToken()); // a renewal now, as after a 401
    }
    await link.api.me();
    const log = link.transport.log;
    assert.equal(log.filter((l) => l.path === '/oauth/token' && l.status === 200).length, 3, 'three refreshes');
    const nonceTries = (path: string) => log.filter((l) => l.path.startsWith(path) && (l.status === 400 || l.status === 401)).length;
    assert.equal(nonceTries('/oauth/token'), 1, 'the token endpoint asked for its nonce once');
    assert.equal(nonceTries('/v1/'), 1, '/v1 asked for its nonce once');
  });

  it('two processes sharing one file store refresh at once without losing the sign-in', async function () {
    this.timeout(60_000);
    const storeFile = path.join(w.dir, 'secrets.json');
    const lockDir = path.join(w.dir, 'locks');
    const store = new FileSecretStore(storeFile);
    const core = w.core({ store, lockDir });
    await signInCore(w, core);
    const before = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey))!);
    await core.dispose();
    w.sb.advance(14 * MIN); // both see a token about to expire
    const args = [storeFile, lockDir, w.url, String(w.sb.clock.now()), w.machineId];
    const a = runChild(args);
    const b = runChild(args);
    await Promise.all([a.line(1), b.line(1)]);
    a.child.stdin.write('go\n');
    b.child.stdin.write('go\n');
    const [ra, rb] = [JSON.parse(await a.line(2)), JSON.parse(await b.line(2))];
    assert.ok(ra.ok, ra.error);
    assert.ok(rb.ok, rb.error);
    assert.equal(ra.accessToken, rb.accessToken, 'the second used the pair the first stored');
    const after = JSON.parse((await store.get(signInSlot(w.url, w.machineId).tokensKey))!);
    assert.notEqual(after.refreshToken, before.refreshToken);
    // The sign-in still works: a fresh window on the same store reads /v1/me.
    const again = w.core({ store, lockDir });
    await again.start();
    assert.equal(again.state.kind, 'online');
  });
});

describe('auth: token set rules (scripted endpoints)', () => {
  function setup(refresh: (rt: string) => Promise<unknown>) {
    const store = new MemorySecretStore();
    const clock = new ManualClock({ start: 0 });
    const endpoints = { origin: 'http://svc', refresh: async (rt: string) => refresh(rt) } as unknown as OAuthEndpoints;
    const slot = signInSlot('http://svc', 'mch_test');
    return { store, slot, clock, set: (t: number) => moveTo(clock, t), endpoints };
  }

  it('one refresh at a time in a process: concurrent callers share it', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = setup(async () => {
      calls++;
      await gate; // the refresh is still on its way while the other callers ask
      return { access_token: `at-${calls}`, token_type: 'DPoP', expires_in: 900, refresh_token: `rt-${calls}` };
    });
    const { key } = await DpopKey.generate();
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    await t.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    s.set(890_000);
    const asked = Promise.all([t.accessToken(), t.accessToken(), t.accessToken()]);
    release();
    const tokens = await asked;
    assert.deepEqual(tokens, ['at-1', 'at-1', 'at-1']);
    assert.equal(calls, 1);
  });

  it('invalid_grant: another window rotated meanwhile -> use its pair; otherwise sign out', async () => {
    const { key } = await DpopKey.generate();
    const s = setup(async () => {
      // Another window rotated while our refresh was on its way.
      await s.store.store(s.slot.tokensKey, JSON.stringify({ accessToken: 'at-other', refreshToken: 'rt-other', expiresAt: 2_000_000, scope: '', origin: 'http://svc', computerId: 'mch_test' }));
      throw new OAuthRefusalError(400, 'invalid_grant', 'used', 'http://svc/oauth/token');
    });
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    await t.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    s.set(890_000);
    assert.equal(await t.accessToken(), 'at-other');

    const s2 = setup(async () => {
      throw new OAuthRefusalError(400, 'invalid_grant', 'revoked', 'http://svc/oauth/token');
    });
    const t2 = new TokenSet({ store: s2.store, slot: s2.slot, endpoints: s2.endpoints, key, clock: s2.clock });
    let signedOut = 0;
    t2.onDidSignOut(() => signedOut++);
    await t2.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    s2.set(890_000);
    await assert.rejects(t2.accessToken(), SignedOutError);
    assert.equal(signedOut, 1);
    assert.equal(await s2.store.get(s2.slot.tokensKey), undefined);
  });

  it('a network failure during refresh keeps the sign-in (no sign-out for being offline)', async () => {
    const { key } = await DpopKey.generate();
    const s = setup(async () => {
      throw new Error('ECONNREFUSED');
    });
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    await t.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    s.set(890_000);
    await assert.rejects(t.accessToken(), /ECONNREFUSED/);
    assert.ok(await s.store.get(s.slot.tokensKey));
  });

  it('a refresh whose answer may have been lost ends the sign-in as renewal-lost and never resends its token; one never sent keeps it', async () => {
    const { key } = await DpopKey.generate();
    const sent: string[] = [];
    const s = setup(async (rt) => {
      sent.push(rt);
      throw new NetworkError('http://svc/oauth/token', 'UND_ERR_SOCKET', true);
    });
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    let ended: string | undefined;
    t.onDidSignOut((e) => (ended = e.reason));
    await t.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    s.set(890_000);
    await assert.rejects(t.accessToken(), (e: unknown) => e instanceof SignedOutError && e.ended === 'renewal-lost');
    assert.equal(ended, RENEWAL_LOST);
    assert.equal(await s.store.get(s.slot.tokensKey), undefined, 'the maybe-spent token is forgotten');
    await assert.rejects(t.accessToken(), (e: unknown) => e instanceof SignedOutError && e.ended === 'renewal-lost', 'later callers are told the same');
    assert.deepEqual(sent, ['rt-0'], 'sent once');

    const offline = setup(async () => {
      throw new NetworkError('http://svc/oauth/token', 'ECONNREFUSED', false);
    });
    const t2 = new TokenSet({ store: offline.store, slot: offline.slot, endpoints: offline.endpoints, key, clock: offline.clock });
    await t2.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    offline.set(890_000);
    await assert.rejects(t2.accessToken(), (e: unknown) => e instanceof NetworkError);
    assert.ok(await offline.store.get(offline.slot.tokensKey), 'never sent: the sign-in stays, tried again later');
  });

  it('what counts as never sent: no connection or tunnel made; a reset or a closed socket may have arrived', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']) assert.equal(neverSent({ code }), true, code);
    assert.equal(neverSent({ message: 'Proxy response (502) !== 200 when HTTP Tunneling' }), true);
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'EPIPE', undefined]) assert.equal(neverSent({ code }), false, String(code));
  });

  it('a token never goes to an origin other than the one that issued it (requests and refresh)', async () => {
    const { key } = await DpopKey.generate();
    let refreshes = 0;
    const s = setup(async () => {
      refreshes++;
      return { access_token: 'at-1', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-1' };
    });
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    await t.adopt({ access_token: 'at-0', token_type: 'DPoP', expires_in: 900, refresh_token: 'rt-0' });
    // A client pointed at another service with this sign-in: nothing leaves.
    const sent: HttpRequest[] = [];
    const transport = { send: async (r: HttpRequest) => { sent.push(r); return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' }; }, close: async () => undefined };
    const timers = { setTimeout: (fn: () => void) => { fn(); return { cancel() {} }; } };
    const elsewhere = new ApiClient({ baseUrl: 'http://svc.evil:8080', transport, auth: t, clock: s.clock, timers, userAgent: 'x' });
    await assert.rejects(elsewhere.me(), (e: unknown) => e instanceof TokenOriginError && e.issuer === 'http://svc' && e.target === 'http://svc.evil:8080');
    assert.equal(sent.length, 0);
    const home = new ApiClient({ baseUrl: 'http://svc', transport, auth: t, clock: s.clock, timers, userAgent: 'x' });
    await home.me().catch(() => undefined);
    assert.equal(sent.length, 1, 'the issuing origin still gets it');
    // A refresh through another service's token endpoint: the refresh token stays home.
    const foreign = new TokenSet({ store: s.store, slot: s.slot, endpoints: { ...s.endpoints, origin: 'https://other.example', refresh: s.endpoints.refresh } as unknown as OAuthEndpoints, key, clock: s.clock });
    s.set(890_000);
    await assert.rejects(foreign.accessToken(), TokenOriginError);
    assert.equal(refreshes, 0);
    assert.ok(await s.store.get(s.slot.tokensKey), 'and the sign-in is kept');
  });

  it('a stored record naming another service or computer is no sign-in here', async () => {
    const { key } = await DpopKey.generate();
    const s = setup(async () => { throw new Error('no refresh expected'); });
    await s.store.store(s.slot.tokensKey, JSON.stringify({ accessToken: 'at-x', refreshToken: 'rt-x', expiresAt: 2_000_000, scope: '', origin: 'http://other', computerId: 'mch_test' }));
    const t = new TokenSet({ store: s.store, slot: s.slot, endpoints: s.endpoints, key, clock: s.clock });
    assert.equal(await t.load(), false);
    await s.store.store(s.slot.tokensKey, JSON.stringify({ accessToken: 'at-x', refreshToken: 'rt-x', expiresAt: 2_000_000, scope: '', origin: 'http://svc', computerId: 'mch_other' }));
    assert.equal(await t.load(), false);
  });
});
