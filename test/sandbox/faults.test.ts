// POST /_sandbox/faults: status with a problem body, a slow answer, a dropped connection, optional
// OAuth fields omitted, `times`,
// matching by path prefix and method, on /v1, /oauth and /in; never on the control surface.
import assert from 'node:assert/strict';
import { call, makeKey, signIn, startDevice } from './helpers';
import { answer, key, makeWorld, type World } from '../kit';

describe('sandbox faults', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('a status fault answers a problem for the next `times` matching requests only', async () => {
    const f = await w.ctl('POST', '/_sandbox/faults', { path: '/v1/cards', method: 'get', status: 503, times: 2 });
    assert.equal(f.status, 200, f.text);
    for (let i = 0; i < 2; i++) {
      const r = await w.me.request('GET', '/v1/cards');
      assert.equal(r.status, 503);
      assert.equal(r.json.code, 'unavailable');
      assert.match(r.json.requestId, /^rid_/);
      assert.match(r.headers.get('content-type') ?? '', /problem\+json/);
      assert.equal(r.headers.get('service-version'), '2026-10-05');
    }
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 200);
  });

  it('matches method and path prefix; 500 server_error; 429 with Retry-After', async () => {
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/cards', method: 'POST', status: 500, times: 1 });
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 200, 'a GET does not match');
    const c = await w.card();
    const r = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] });
    assert.equal(r.status, 500);
    assert.equal(r.json.code, 'server_error');
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/assistants', status: 429, retryAfter: 7, times: 1 });
    const limited = await w.me.request('GET', '/v1/assistants');
    assert.equal(limited.json.code, 'rate_limited');
    assert.equal(limited.headers.get('retry-after'), '7');
  });

  it('delayMs slows the answer; meanwhile another write to the card is 409 conflict', async () => {
    const c = await w.card();
    // Held until let go: a timed hold (1 s) can end before the test looks for it on a busy machine.
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/later`, delayMs: 120_000, times: 1 });
    const slow = w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' } });
    await w.held();
    const other = await answer(w.me, c.id, { version: 1, choiceIds: ['a'] }, key());
    assert.equal(other.status, 409);
    assert.equal(other.json.code, 'conflict');
    assert.deepEqual((await w.ctl('POST', '/_sandbox/faults/release')).json, { released: 1 });
    assert.equal((await slow).status, 200);
  });

  it('drop destroys the connection after the work is done', async () => {
    const c = await w.card();
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/later`, drop: true });
    await assert.rejects(w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' } }));
    assert.equal((await w.ctl('GET', `/_sandbox/cards/${c.id}`)).json.status, 'snoozed');
  });

  it('applies to /oauth and /in, never to /_sandbox', async () => {
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/token', status: 503 });
    const t = await call('POST', `${w.url}/oauth/token`, {});
    assert.equal(t.status, 503);
    const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'h', area: { id: 'prj_h', name: 'H' } })).json;
    await w.ctl('POST', '/_sandbox/faults', { path: '/in/', status: 500 });
    assert.equal((await fetch(hook.url, { method: 'POST', body: '{"title":"x"}' })).status, 500);
    assert.equal((await fetch(hook.url, { method: 'POST', body: '{"title":"x"}' })).status, 201);
    await w.ctl('POST', '/_sandbox/faults', { status: 500, times: 3 });
    assert.equal((await w.ctl('GET', '/_sandbox/clock')).status, 200);
    assert.equal((await w.ctl('GET', '/_sandbox/faults')).json.faults.length, 1);
    assert.equal((await w.ctl('DELETE', '/_sandbox/faults')).status, 200);
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 200);
  });

  it('omit: the next answers lack the fields the RFCs make optional (device interval and complete address, token expires_in), nothing else', async () => {
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/device', omit: ['interval', 'verification_uri_complete', 'expires_in'] });
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/token', omit: ['expires_in'], times: 5 });
    const lean = await signIn(w.url, { machine: w.machine });
    const fresh = await lean.refresh();
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.json.expires_in, undefined);
    assert.equal(typeof fresh.json.access_token, 'string');
    const device = await startDevice(w.url, { key: makeKey(), machine: w.machine });
    assert.equal(device.json.interval, 3, 'one time only');
    assert.ok(device.json.verification_uri_complete);
    // The device answer keeps its required expires_in; a token refusal is left whole.
    await w.ctl('POST', '/_sandbox/faults', { path: '/oauth/device', omit: ['interval', 'verification_uri_complete', 'expires_in'] });
    const bare = await startDevice(w.url, { key: makeKey(), machine: w.machine });
    assert.deepEqual(Object.keys(bare.json).sort(), ['client_id', 'device_code', 'expires_in', 'user_code', 'verification_uri']);
    assert.equal((await w.ctl('GET', '/_sandbox/faults')).json.faults.length, 1, 'the token fault still has answers to strip');
  });

  it('refuses a fault that does nothing or has bad fields', async () => {
    for (const bad of [{}, { times: 0, status: 500 }, { status: 200 }, { path: 'v1', status: 500 }, { delayMs: -5 }, { drop: 'yes' }, { status: 500, code: 'nope' },
      { omit: [] }, { omit: ['access_token'] }, { omit: 'interval' }]) {
      assert.equal((await w.ctl('POST', '/_sandbox/faults', bad)).status, 400, JSON.stringify(bad));
    }
  });
});
