// The error table of person-api.md route by route: `invalid`, `app_not_available`, `rate_limited`,
// `server_error` and `unavailable` on every route; `conflict`, `idempotency_in_progress` and
// `idempotency_mismatch` on every card action. (Card-state codes are in lifecycle.test.ts.)
import assert from 'node:assert/strict';
import type { Answer, SignedIn } from './helpers';
import { ALL_SCOPES, key, makeWorld, type World } from '../kit';

type Route = { method: 'GET' | 'POST'; path: (id: string) => string; body?: unknown; cardAction?: boolean; waits?: boolean };

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/v1/me' },
  { method: 'GET', path: () => '/v1/cards' },
  { method: 'GET', path: (id) => `/v1/cards/${id}` },
  { method: 'POST', path: (id) => `/v1/cards/${id}/answer`, body: { version: 1, choiceIds: ['a'] }, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/undo`, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/messages`, body: { body: 'hi' }, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/later`, body: { until: '1h' }, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/back`, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/delegate`, body: { to: { assistantId: 'con_x' }, mode: 'freely' }, cardAction: true },
  { method: 'POST', path: (id) => `/v1/cards/${id}/take-back`, cardAction: true },
  { method: 'GET', path: () => '/v1/changes' },
  { method: 'GET', path: () => '/v1/assistants' },
  { method: 'POST', path: () => '/v1/presence', body: { here: true } },
];

describe('sandbox problems on every route', function () {
  this.timeout(60_000);
  let w: World;
  let cardId: string;
  beforeEach(async () => {
    w = await makeWorld();
    cardId = (await w.card()).id;
  });
  afterEach(async () => {
    await w.close();
  });

  const send = (who: SignedIn, r: Route, headers: Record<string, string> = {}) =>
    who.request(r.method, r.path(cardId), { ...(r.body !== undefined ? { body: r.body } : {}), headers: { 'idempotency-key': key(), ...headers } });
  const isProblem = (res: Answer, status: number, code: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${res.text}`);
    assert.equal(res.json.code, code, what);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/, what);
    assert.match(res.json.requestId, /^rid_/, what);
    assert.equal(res.headers.get('service-version'), '2026-10-05', what);
    assert.ok(res.headers.get('dpop-nonce'), what);
  };

  it('invalid (an unknown Service-Version) on every route', async () => {
    for (const r of ROUTES) {
      const res = await send(w.me, r, { 'service-version': '1999-01-01' });
      isProblem(res, 400, 'invalid', r.path(cardId));
      assert.equal(res.json.errors[0].field, 'Service-Version');
    }
  });

  it('app_not_available on every route once the person removed the app', async () => {
    const reg = await w.ctl('POST', '/_sandbox/apps', { name: 'Soon gone', verified: true, scopes: ALL_SCOPES, redirectUris: [] });
    const gone = await w.signIn({ machine: w.machine, clientId: reg.json.clientId, scopes: ALL_SCOPES });
    assert.equal((await gone.request('GET', '/v1/cards')).status, 200);
    assert.equal((await w.ctl('DELETE', `/_sandbox/apps/${reg.json.id}`)).status, 200);
    for (const r of ROUTES) isProblem(await send(gone, r), 403, 'app_not_available', r.path(cardId));
  });

  it('rate_limited with Retry-After on every route, from the real limits', async () => {
    for (let i = 0; i < 300; i++) await w.me.request('GET', '/v1/cards?whole=0');
    for (let i = 0; i < 60; i++) await w.me.request('POST', '/v1/presence', { body: { here: true } });
    for (const r of ROUTES) {
      const res = await send(w.me, r);
      isProblem(res, 429, 'rate_limited', r.path(cardId));
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
    }
  });

  it('server_error and unavailable on every route', async () => {
    for (const [status, code] of [[500, 'server_error'], [503, 'unavailable']] as const) {
      for (const r of ROUTES) {
        await w.ctl('POST', '/_sandbox/faults', { path: r.path(cardId).split('?')[0], method: r.method, status });
        isProblem(await send(w.me, r), status, code, `${status} ${r.path(cardId)}`);
      }
    }
  });

  it('conflict, idempotency_in_progress and idempotency_mismatch on every card action', async function () {
    this.timeout(60_000);
    // The first write is held once its work is done, until the test lets it go after the second
    // was answered: a timed hold (600 ms) could end before a busy machine's test looked for it.
    const HOLD_MS = 120_000;
    const letGo = async () => assert.deepEqual((await w.ctl('POST', '/_sandbox/faults/release')).json, { released: 1 });
    const actions = ROUTES.filter((r) => r.cardAction);
    for (const r of actions) {
      // conflict: another write to the card is still being answered
      const c = (await w.card()).id;
      await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c}/later`, delayMs: HOLD_MS, times: 1 });
      const slow = w.me.request('POST', `/v1/cards/${c}/later`, { body: { until: '1h' } });
      await w.held();
      const path = r.path(c);
      isProblem(await w.me.request('POST', path, { ...(r.body !== undefined ? { body: r.body } : {}), headers: { 'idempotency-key': key() } }), 409, 'conflict', `conflict ${path}`);
      await letGo();
      await slow;
    }
    for (const r of actions) {
      const c = (await w.card()).id;
      const path = r.path(c);
      const k = key();
      await w.ctl('POST', '/_sandbox/faults', { path, delayMs: HOLD_MS, times: 1 });
      const first = w.me.request('POST', path, { ...(r.body !== undefined ? { body: r.body } : {}), headers: { 'idempotency-key': k } });
      await w.held();
      isProblem(await w.me.request('POST', path, { ...(r.body !== undefined ? { body: r.body } : {}), headers: { 'idempotency-key': k } }), 409, 'idempotency_in_progress', `in progress ${path}`);
      await letGo();
      await first;
      isProblem(await w.me.request('POST', path, { body: { other: true }, headers: { 'idempotency-key': k } }), 422, 'idempotency_mismatch', `mismatch ${path}`);
    }
  });
});
