// The fault matrix: the client core against the sandbox's faults (POST /_sandbox/faults), its
// manual clock, a switchable loopback proxy (the service unreachable) and its control surface.
// Every row asserts what the person sees (connection state, typed errors, model contents) and
// what the sandbox recorded (GET /_sandbox/cards/{id}/heard), and the three rules:
//   - each press reaches the assistant exactly once, or the person is told it did not;
//   - nothing is sent that the person did not press (every card write carries a pressed key);
//   - the model recovers by itself (online again, the cards current) with no press.
//
// Rows covered elsewhere (not repeated here):
//   - 503 and a dropped connection mid-answer, retried with one key, heard once:
//       test/sync/sync.test.ts "an answer survives a dropped connection and a 503 with one key"
//   - 429 with Retry-After on a read: test/sync/sync.test.ts "429 is honoured"
//   - a nonce that expires (read): test/sync/sync.test.ts "an old DPoP nonce is answered use_dpop_nonce"
//   - a card changed between showing and answering (answer): test/sync/sync.test.ts "version_conflict"
//   - offline (503 + drop on the feed) and back: test/sync/sync.test.ts "offline and back"
//   - retry and key rules on a scripted transport: test/api/client.test.ts
//   - refresh rotation, two processes, invalid_grant re-read: test/auth/token-set.test.ts
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { Agent } from 'undici';
import { ApiProblemError, NetworkError, OAuthRefusalError, VersionConflictError } from '../../src/api/errors';
import { createTransport } from '../../src/api/http';
import { SignedOutError } from '../../src/auth/errors';
import type { Press } from '../../src/sync/press';
import { CountingTransport, until, makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';
import { pipeToLoopback } from '../helpers/proxy';
import { offsetClock } from '../kit/clocks';
import { pressOutsideThePath } from '../../src/sync/session';

const MIN = 60_000;
type Core = ReturnType<World['core']>;

/** Card writes (every action route) in a core's log. */
function cardWrites(core: Core) {
  return core.transport.log.filter((l) => l.method === 'POST' && /^\/v1\/cards\/[^/]+\/[a-z-]+$/.test(l.path));
}

/** Rule 2: every card write carries the key of a press the person made. */
function onlyPressed(core: Core, presses: Press[]) {
  const keys = new Set(presses.map((p) => p.idempotencyKey));
  for (const wr of cardWrites(core)) {
    assert.ok(keys.has(wr.headers['idempotency-key'] ?? ''), `a write nobody pressed: ${wr.method} ${wr.path}`);
  }
}

/** Settles a promise while moving the manual clock (retries wait on it). */
async function drive<T>(w: World, p: Promise<T>, stepMs = 500, maxMs = 10 * MIN): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let out: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  p.then((value) => (out = { ok: true, value }), (error: unknown) => (out = { ok: false, error }));
  await w.advanceUntil(() => out !== undefined, stepMs, maxMs);
  return out!;
}

async function heard(w: World, id: string): Promise<{ type: string; body: Record<string, unknown> }[]> {
  return (await w.ctl('GET', `/_sandbox/cards/${id}/heard`)).json.heard;
}

/** A TCP proxy in front of the sandbox that can play "unreachable" (connections refused at once). */
/** A TCP forwarder that can go down; it listens first, and `to(port)` names the sandbox behind it. */
async function switchableProxy() {
  let targetPort = 0;
  let down = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    pipeToLoopback(client, Number(targetPort), sockets);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    to(sandboxPort: number) { targetPort = sandboxPort; },
    setDown(v: boolean) {
      down = v;
      if (v) for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

describe('faults: the fault matrix', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  async function signedIn(o: Parameters<World['core']>[0] = {}, focused = true) {
    const core = w.core(o);
    if (focused) core.feed.setFocused(true);
    await signInCore(w, core);
    return core;
  }

  async function shown(core: Core, fields: Record<string, unknown> = {}) {
    const c = await w.card({ title: 'a card', ...fields });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 2 * MIN);
    const whole = await core.cards.whole(c.id);
    return { id: whole.id, version: whole.version, highStakes: whole.highStakes, url: whole.url };
  }

  it('500 on reads: the full read and the feed fail, the person sees offline with the cards kept, then it recovers by itself', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.advance(1_000); // the owner's quick reads after the card's change end: it holds a wait again
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/cards', method: 'GET', status: 500, times: 8 });
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', status: 500, times: 3 });
    const refresh = drive(w, core.cards.refresh());
    await w.pollWaiting();
    await w.advance(26_000); // the held long-poll ends; the next ones meet the 500s
    const r = await refresh;
    assert.equal(r.ok, false, 'the refresh fails after its retries');
    assert.ok(r.ok === false && r.error instanceof ApiProblemError && r.error.status === 500 && r.error.code === 'server_error');
    assert.ok(states.includes('offline'), 'the person is told: offline');
    assert.ok(core.cards.get(c.id), 'what was read stays on screen');
    const later = await w.card({ title: 'arrived during the 500s' });
    await w.advanceUntil(() => core.state.kind === 'online' && core.cards.get(later.id) !== undefined, 5000, 10 * MIN);
    assert.equal(cardWrites(core).length, 0, 'nothing was sent that nobody pressed');
  });

  it('503 on reads of one card (feed refetch): retried with backoff; the card arrives; no write', async () => {
    const core = await signedIn();
    await until(() => core.transport.longPolls === 1);
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/cards/req_', method: 'GET', status: 503, times: 2 });
    const c = await w.card({ title: 'refetched after two 503s' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 5 * MIN);
    const reads = core.transport.log.filter((l) => l.path === `/v1/cards/${c.id}`);
    assert.deepEqual(reads.map((l) => l.status).slice(0, 3), [503, 503, 200]);
    assert.equal(core.state.kind, 'online');
    assert.equal(cardWrites(core).length, 0);
  });

  it('500 on an answer: retried with the same key while the person waits; heard exactly once', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 500, times: 2 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await drive(w, p.send());
    assert.ok(r.ok, 'the press succeeds');
    const tries = cardWrites(core);
    assert.deepEqual(tries.map((t) => t.status), [500, 500, 200]);
    assert.deepEqual([...new Set(tries.map((t) => t.headers['idempotency-key']))], [p.idempotencyKey]);
    await w.advance(6000);
    assert.equal((await heard(w, c.id)).length, 1);
    onlyPressed(core, [p]);
  });

  it('503 on every try of an answer: the person is told it did not go, and the assistant heard nothing', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 50 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['b'] } });
    const r = await drive(w, p.send());
    assert.ok(!r.ok && r.error instanceof ApiProblemError && r.error.status === 503, 'a typed error the panel turns into a message');
    assert.equal(p.state, 'failed');
    const tries = cardWrites(core).length;
    await w.advance(10 * MIN);
    assert.equal(cardWrites(core).length, tries, 'no retry after the press failed');
    assert.deepEqual(await heard(w, c.id), []);
    await w.ctl('DELETE', '/_sandbox/faults');
    assert.equal(core.cards.get(c.id)?.status, 'pending', 'the card still waits on the person');
    onlyPressed(core, [p]);
  });

  it('the person moves on while an answer is refused: no retry after cancel, nothing heard', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 50 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    const sent = p.send();
    sent.catch(() => undefined);
    await until(() => cardWrites(core).length === 1);
    p.cancel(); // the panel closed
    await w.advance(5 * MIN);
    assert.equal(cardWrites(core).length, 1, 'the retry after the panel closed is not sent');
    await assert.rejects(sent);
    assert.deepEqual(await heard(w, c.id), []);
  });

  it('429 with Retry-After on an answer: sent again only after Retry-After, with the same key; heard once', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 429, retryAfter: 9, times: 1 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    let done = false;
    void p.send().then(() => (done = true), () => (done = true));
    await until(() => cardWrites(core).length === 1);
    await w.advance(8000);
    assert.equal(cardWrites(core).length, 1, 'not before Retry-After');
    await w.advance(1500);
    await until(() => done);
    assert.equal(p.state, 'sent');
    assert.deepEqual(cardWrites(core).map((t) => t.status), [429, 200]);
    assert.deepEqual([...new Set(cardWrites(core).map((t) => t.headers['idempotency-key']))], [p.idempotencyKey]);
    await w.advance(6000);
    assert.equal((await heard(w, c.id)).length, 1);
  });

  it('a slow answer past the client timeout: the retry with the same key learns the outcome; heard once', async () => {
    // Answers go through a transport that gives up after 300 ms (the real one waits 45 s; same
    // code path); everything else through a patient one, so a slow read on a busy machine is not
    // a fault of this test's making.
    const short = createTransport({ dispatcher: new Agent({ headersTimeout: 300, bodyTimeout: 300 }) });
    const patient = createTransport();
    const isAnswer = (url: string) => /\/v1\/cards\/[^/]+\/answer$/.test(new URL(url).pathname);
    const transport = new CountingTransport({
      send: (req) => (isAnswer(req.url) ? short : patient).send(req),
      close: async () => { await short.close(); await patient.close(); },
    });
    const core = w.core({ transport });
    w.transports.push(transport);
    await signInCore(w, core);
    const c = await shown(core);
    // Held until let go (a timed hold can end before the test looks for it on a busy machine).
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, delayMs: 120_000, times: 1 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['b'] } });
    const sending = p.send();
    const tries = () => transport.log.filter((l) => l.path === `/v1/cards/${c.id}/answer`);
    // States, not time: the sandbox holds the first answer, the client gives up on it, then the
    // sandbox finishes it (stores its result for the key). Only then does the retry go out.
    await until(() => w.sb.sandbox.faults.holding === 1);
    await until(() => tries()[0]?.status === 'error');
    assert.equal(w.sb.sandbox.faults.release(), 1, 'the first answer, still held, finishes now');
    await until(() => w.sb.sandbox.faults.holding === 0);
    const r = await drive(w, sending, 300);
    assert.ok(r.ok, `the press ends well: ${r.ok ? '' : String(r.error)}`);
    assert.equal(tries()[0]!.status, 'error', 'the first try timed out in the client');
    assert.ok(tries().length >= 2);
    assert.deepEqual([...new Set(tries().map((t) => t.headers['idempotency-key']))], [p.idempotencyKey]);
    await w.advance(6000);
    const h = await heard(w, c.id);
    assert.equal(h.length, 1, 'heard exactly once');
    assert.deepEqual(h[0]!.body.choiceIds, ['b']);
  });

  it('a nonce that expires before an answer: refused use_dpop_nonce, repeated once with the new nonce; heard once', async () => {
    const core = await signedIn({}, false);
    const c = await shown(core);
    w.sb.advance(11 * MIN); // only the service's clock: the nonce the client holds is past its grace
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), { ...c }, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await drive(w, p.send());
    assert.ok(r.ok, r.ok ? '' : String(r.error));
    const tries = cardWrites(core);
    assert.deepEqual(tries.map((t) => t.status), [401, 200]);
    assert.equal(tries[0]!.resHeaders['www-authenticate']?.includes('use_dpop_nonce'), true);
    assert.equal(tries[0]!.headers['idempotency-key'], tries[1]!.headers['idempotency-key']);
    await w.advance(6000);
    assert.equal((await heard(w, c.id)).length, 1);
  });

  it('an access token that expires mid-session: renewed by refresh before the press goes; heard once; reading goes on', async () => {
    const core = await signedIn();
    const c = await shown(core);
    const tokenBefore = cardReadsAuth(core);
    w.sb.advance(16 * MIN); // past the 15 min access token life, no timer fired yet
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await drive(w, p.send());
    assert.ok(r.ok, r.ok ? '' : String(r.error));
    assert.ok(core.transport.log.some((l) => l.path === '/oauth/token' && l.status === 200), 'the sign-in was renewed');
    const answerAuth = cardWrites(core).map((l) => l.headers.authorization);
    assert.ok(answerAuth.every((a) => a !== tokenBefore), 'the answer carried the new access token');
    assert.equal(core.state.kind, 'online');
    await w.advance(6000);
    assert.equal((await heard(w, c.id)).length, 1);
    const next = await w.card({ title: 'after the renewal' });
    await w.advanceUntil(() => core.cards.get(next.id) !== undefined, 1000, 2 * MIN);
  });

  it('a sign-in revoked elsewhere: the person is signed out (told once), a press then sends nothing, nothing heard', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.advance(1_000); // the owner's quick reads after the card's change end: it holds a wait again
    const grants = (await w.ctl('GET', '/_sandbox/grants')).json.grants as { id: string; revoked: boolean }[];
    for (const g of grants.filter((x) => !x.revoked)) w.sb.sandbox.auth.core.store.revokeGrant(g.id);
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    await w.pollWaiting();
    await w.advance(26_000); // the held long-poll ends; the next request meets the revocation
    await w.advanceUntil(() => core.state.kind === 'signed-out', 1000, 2 * MIN);
    assert.deepEqual(states.filter((s) => s === 'signed-out'), ['signed-out'], 'one change to signed out, no loop');
    assert.deepEqual(core.state, { kind: 'signed-out', reason: 'refused' }, 'the editor is told the service ended it');
    assert.equal(core.cards.get(c.id), undefined, 'the cards of the ended sign-in are gone from view');
    const before = core.transport.log.length;
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await drive(w, p.send());
    assert.ok(!r.ok && (r.error instanceof SignedOutError || r.error instanceof OAuthRefusalError), `told: ${r.ok ? '' : String(r.error)}`);
    assert.equal(core.transport.log.slice(before).filter((l) => l.path.startsWith('/v1/cards/')).length, 0, 'no card write without a sign-in');
    await w.advance(6000);
    assert.deepEqual(await heard(w, c.id), []);
    await w.advance(10 * MIN);
    assert.equal(core.state.kind, 'signed-out', 'stays signed out: no sign-in loop');
  });

  it('the answer to a refresh is lost (dropped after the service rotated): the spent token is never sent again, the sign-in is not revoked, the person is told the renewal was lost; one Sign In brings it back', async () => {
    const core = await signedIn();
    const c = await shown(core);
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    const grantsLive = async () => ((await w.ctl('GET', '/_sandbox/grants')).json.grants as { revoked: boolean }[]).filter((g) => !g.revoked).length;
    assert.equal(await grantsLive(), 1);
    // The service forgets the access token: the next /v1 request is refused invalid_token and
    // renews at once, with the token endpoint's nonce still fresh, so the refresh itself is dropped.
    w.sb.sandbox.auth.core.store.access.clear();
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/token', drop: true, times: 1 });
    const r = await drive(w, core.cards.refresh());
    assert.ok(!r.ok && r.error instanceof SignedOutError && r.error.ended === 'renewal-lost', `told: ${r.ok ? '' : String(r.error)}`);
    await w.advanceUntil(() => core.state.kind === 'signed-out', 1000, MIN);
    assert.deepEqual(core.state, { kind: 'signed-out', reason: 'renewal-lost' }, 'told the renewal was lost, not that the service refused');
    const refreshes = () => core.transport.log.filter((l) => l.path === '/oauth/token' && l.body?.includes('grant_type=refresh_token'));
    assert.deepEqual(refreshes().map((l) => l.status), ['error'], 'one refresh, its answer lost; the spent token never sent again');
    assert.equal(await grantsLive(), 1, 'no reuse: the service did not revoke the sign-in');
    assert.equal(core.cards.get(c.id), undefined, 'the cards of the ended sign-in are gone from view');
    await w.advance(10 * MIN);
    assert.equal(refreshes().length, 1, 'nothing more is tried with it');
    assert.deepEqual(states.filter((s) => s === 'signed-out'), ['signed-out'], 'told once, no loop');
    // One Sign In (and the person's allow) and it is back; the orphaned sign-in is replaced.
    await signInCore(w, core);
    assert.equal(core.state.kind, 'online');
    assert.equal(await grantsLive(), 1);
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 2 * MIN);
  });

  it('the app removed by the person (app_not_available on every route): signed out once, with that reason; no retry loop', async () => {
    const core = await signedIn();
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1', status: 403, code: 'app_not_available', times: 1000 });
    await w.pollWaiting();
    await w.advance(26_000); // the held long-poll ends; the next request meets the refusal
    await w.advanceUntil(() => core.state.kind === 'signed-out', 1000, 2 * MIN);
    assert.deepEqual(core.state, { kind: 'signed-out', reason: 'app-removed' });
    const after = core.transport.log.length;
    await w.advance(10 * MIN);
    assert.equal(core.transport.log.length, after, 'nothing more is asked of the service');
  });

  for (const [label, offset] of [['ahead', 2 * MIN], ['behind', -2 * MIN]] as const) {
    it(`the computer's clock 2 minutes ${label}: sign-in, reads and an answer still work (the service's time is learned); heard once`, async () => {
      const skewed = offsetClock(w.clock, offset);
      const core = w.core({ clock: skewed });
      core.feed.setFocused(true);
      await signInCore(w, core);
      assert.equal(core.state.kind, 'online', 'signed in although the clocks differ');
      const c = await shown(core);
      const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
      const r = await drive(w, p.send());
      assert.ok(r.ok, r.ok ? '' : String(r.error));
      await w.advance(6000);
      assert.equal((await heard(w, c.id)).length, 1);
      const next = await w.card({ title: 'after the answer' });
      await w.advanceUntil(() => core.cards.get(next.id) !== undefined, 1000, 2 * MIN);
      onlyPressed(core, [p]);
    });
  }

  it('the service unreachable for 10 minutes, then back: offline with the cards kept, a press is refused and said so, then it recovers by itself', async () => {
    // The sandbox behind the forwarder names the forwarder's address (--public-url).
    const proxy = await switchableProxy();
    await w.close();
    w = await makeWorld({ publicUrl: proxy.url, me: false });
    proxy.to(w.sb.port);
    try {
      const core = await signedIn({ baseUrl: proxy.url });
      const c = await shown(core);
      const states: string[] = [];
      core.onDidChangeState((s) => states.push(s.kind));
      proxy.setDown(true);
      await w.advance(2 * MIN);
      assert.equal(core.state.kind, 'offline', 'the person sees offline');
      assert.ok(core.cards.get(c.id), 'the cards read before stay');
      // A press during the outage: retried while the person waits, then they are told.
      const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
      const r = await drive(w, p.send(), 1000, 5 * MIN);
      assert.ok(!r.ok && r.error instanceof NetworkError, 'told it could not reach the service');
      const attempts = core.transport.log.length;
      await w.advance(8 * MIN); // 10 minutes down in all
      const during = core.transport.log.length - attempts;
      assert.ok(during < 40, `backs off while unreachable (${during} tries in 8 min)`);
      const arrived = await w.ctl('POST', '/_sandbox/cards', { agentId: w.agentId, kind: 'text', title: 'made during the outage' });
      proxy.setDown(false);
      await w.advanceUntil(() => core.state.kind === 'online' && core.cards.get(arrived.json.id) !== undefined, 5000, 5 * MIN);
      assert.deepEqual(await heard(w, c.id), [], 'the refused press never reached the assistant');
      assert.equal(core.cards.get(c.id)?.status, 'pending', 'the card still waits on the person');
      assert.equal(cardWrites(core).filter((l) => l.status !== 'error').length, 0, 'nothing got through that was not pressed again');
      onlyPressed(core, [p]);
      await settle(w.transports);
    } finally {
      await proxy.close();
    }
  });

  it('a gateway answers 502 {"error":"upstream_unreachable"} (also at /oauth/token): offline, never signed out; the press is retried with its key, then said as unreachable; back by itself', async () => {
    // Between the client and the sandbox: while `down`, every /v1 and /oauth request gets the
    // gateway's own JSON 502 (an `error` field, not an OAuth refusal); `times` answers first.
    const gw = { down: false, times: 0 };
    const gatewayShape = { status: 502, headers: { 'content-type': 'application/json' }, text: '{"error":"upstream_unreachable"}' };
    const inner = createTransport();
    const gateway = {
      async send(req: Parameters<typeof inner.send>[0]) {
        const path = new URL(req.url).pathname;
        if ((gw.down || gw.times > 0) && (path.startsWith('/v1/') || path.startsWith('/oauth/'))) {
          if (gw.times > 0) gw.times--;
          return gatewayShape;
        }
        return inner.send(req);
      },
      close: () => inner.close(),
    };
    const core = await signedIn({ transport: new CountingTransport(gateway) });
    const c = await shown(core);
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    // Two gateway 502s on the answer: retried with the same key, heard once.
    gw.times = 2;
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), c, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await drive(w, p.send());
    assert.ok(r.ok, 'the press went through after the gateway recovered');
    assert.deepEqual([...new Set(cardWrites(core).map((t) => t.headers['idempotency-key']))], [p.idempotencyKey]);
    // The gateway down for 20 minutes: past the access token's 15, so the refresh meets it too.
    gw.down = true;
    await w.advance(2 * MIN);
    assert.equal(core.state.kind, 'offline', 'the person sees offline');
    const c2 = await w.card({ title: 'second' });
    const p2 = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), { id: c2.id, version: c2.version }, { type: 'answer', answer: { choiceIds: ['b'] } });
    const r2 = await drive(w, p2.send(), 1000, 5 * MIN);
    assert.ok(!r2.ok && r2.error instanceof NetworkError, `told it could not reach the service, not that the sign-in ended (${r2.ok ? '' : String(r2.error)})`);
    await w.advance(18 * MIN);
    assert.ok(core.transport.log.some((l) => l.path === '/oauth/token'), 'a refresh was tried through the gateway');
    gw.down = false;
    await w.advanceUntil(() => core.state.kind === 'online' && core.cards.get(c2.id) !== undefined, 5000, 5 * MIN);
    assert.ok(!states.includes('signed-out'), `never signed out: ${states.join(' ')}`);
    await w.advance(6000);
    assert.equal((await heard(w, c.id)).length, 1);
    assert.deepEqual(await heard(w, c2.id), []);
    onlyPressed(core, [p, p2]);
  });

  it('a card changed between showing and a Later / a message: refused in the client with the fresh card, nothing sent', async () => {
    const core = await signedIn();
    const c = await shown(core);
    await w.ctl('POST', `/_sandbox/cards/${c.id}/area`, { id: 'prj_web', name: 'Web' });
    await w.advanceUntil(() => (core.cards.get(c.id)?.version ?? 0) > c.version, 1000, MIN);
    for (const action of [{ type: 'later' as const, until: new Date(w.sb.clock.now() + 3_600_000).toISOString() }, { type: 'message' as const, body: 'hi' }]) {
      const before = cardWrites(core).length;
      const p = pressOutsideThePath(core, core.gestures.fromUiEvent(`click:${action.type}`), c, action);
      await assert.rejects(p.send(), (e: unknown) => e instanceof VersionConflictError && (e.fresh?.version ?? 0) > c.version);
      assert.equal(cardWrites(core).length, before, `${action.type}: nothing sent for a version the person did not see`);
    }
    assert.deepEqual(await heard(w, c.id), []);
  });
});

function cardReadsAuth(core: Core): string | undefined {
  return core.transport.log.filter((l) => l.path.startsWith('/v1/')).at(-1)?.headers.authorization;
}
