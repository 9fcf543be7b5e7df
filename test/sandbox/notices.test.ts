// The notice address POST /in/<token> (incoming-notices.md): every row of its state table, every
// result and error, shortening, unknown fields, refusals, Cloudflare's payload (DESIGN), and notices
// shown through /v1 as `update` cards that Got it closes.
import assert from 'node:assert/strict';
import { answer, makeWorld, type World } from '../kit';

describe('sandbox notice address', () => {
  let w: World;
  let hook: { id: string; url: string };
  beforeEach(async () => {
    w = await makeWorld();
    hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'Deploys', area: { id: 'prj_ops', name: 'Ops' } })).json;
  });
  afterEach(async () => {
    await w.close();
  });

  const send = async (body: unknown, url = hook.url, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  };
  const card = async (id: string) => (await w.me.request('GET', `/v1/cards/${id}`)).json.card;
  const counts = async () => (await w.ctl('GET', `/_sandbox/webhooks/${hook.id}`)).json.counts;

  it('none -> open: 201 created with a req_ card id and count 1; shown through /v1 as an update card', async () => {
    const r = await send({ title: 'Deploy failed', summary: 'step migrate', url: 'https://ci.example.com/1', severity: 'error', from: 'CI', dedupeKey: 'd1' });
    assert.equal(r.status, 201);
    assert.equal(r.json.ok, true);
    assert.equal(r.json.result, 'created');
    assert.match(r.json.cardId, /^req_[A-Za-z0-9-]+$/);
    assert.equal(r.json.count, 1);
    const c = await card(r.json.cardId);
    assert.equal(c.kind, 'update');
    assert.equal(c.status, 'pending');
    assert.equal(c.turn, 'you');
    assert.equal(c.title, 'Deploy failed');
    assert.equal(c.summary, 'step migrate');
    assert.equal(c.severity, 'error');
    assert.equal(c.count, 1);
    assert.equal(c.from, 'CI');
    assert.deepEqual(c.webhook, { name: 'Deploys', area: { id: 'prj_ops', name: 'Ops' } });
    assert.deepEqual(c.area, { id: 'prj_ops', name: 'Ops' });
    assert.equal(c.url, 'https://ci.example.com/1');
    assert.ok(c.firstAt && c.lastAt);
    const listed = await w.me.request('GET', '/v1/cards?app=webhook');
    assert.deepEqual(listed.json.cards.map((x: { id: string }) => x.id), [r.json.cardId]);
    const dflt = await send({ title: 'plain' });
    assert.equal((await card(dflt.json.cardId)).from, 'Webhook');
  });

  it('open + same dedupeKey: 200 repeated, the count rises, lastAt moves, the card keeps its place', async () => {
    const first = await send({ title: 'Site down', dedupeKey: 'site' });
    const other = await w.card();
    await w.advance(60_000);
    const again = await send({ title: 'Site down', dedupeKey: 'site' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.json, { ok: true, result: 'repeated', cardId: first.json.cardId, count: 2 });
    const c = await card(first.json.cardId);
    assert.equal(c.count, 2);
    assert.equal(Date.parse(c.lastAt) - Date.parse(c.firstAt), 60_000);
    const pending = await w.me.request('GET', '/v1/cards');
    assert.deepEqual(pending.json.cards.map((x: { id: string }) => x.id), [first.json.cardId, other.id]);
    // in Later it is still open
    await w.me.request('POST', `/v1/cards/${first.json.cardId}/later`, { body: { until: '1h' } });
    assert.equal((await send({ title: 'Site down', dedupeKey: 'site' })).json.result, 'repeated');
    // without a key every notice is new
    const a = await send({ title: 'no key' });
    const b = await send({ title: 'no key' });
    assert.notEqual(a.json.cardId, b.json.cardId);
  });

  it('open + resolved: 200 resolved, the card is done, resolved by the webhook, card.closed', async () => {
    const first = await send({ title: 'Site down', dedupeKey: 'site' });
    const r = await send({ title: 'Site up', dedupeKey: 'site', status: 'resolved' });
    assert.equal(r.status, 200);
    assert.equal(r.json.result, 'resolved');
    assert.equal(r.json.cardId, first.json.cardId);
    const c = await card(first.json.cardId);
    assert.equal(c.status, 'done');
    assert.equal(c.resolvedBy, 'webhook');
    assert.equal(c.closedBy, 'webhook');
    const feed = (await w.ctl('GET', '/_sandbox/changes')).json.changes.filter((x: { cardId: string }) => x.cardId === c.id);
    assert.deepEqual(feed.map((x: { type: string }) => x.type), ['card.created', 'card.closed']);
    // the next notice with that key is a new card
    const next = await send({ title: 'Site down again', dedupeKey: 'site' });
    assert.equal(next.status, 201);
    assert.notEqual(next.json.cardId, first.json.cardId);
  });

  it('none or closed + resolved: 200 nothing_open, nothing changes', async () => {
    const r = await send({ title: 'x', dedupeKey: 'never', status: 'resolved' });
    assert.equal(r.status, 200);
    assert.equal(r.json.result, 'nothing_open');
    const noKey = await send({ title: 'x', status: 'resolved' });
    assert.equal(noKey.json.result, 'nothing_open');
    assert.deepEqual((await w.me.request('GET', '/v1/cards')).json.cards, []);
  });

  it('open + Got it (answer with only the version): closed after the hold; the next notice makes a new card', async () => {
    const first = await send({ title: 'Disk full', dedupeKey: 'disk' });
    const c = await card(first.json.cardId);
    const bad = await answer(w.me, c.id, { version: c.version, text: 'ok' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.errors[0].field, 'text');
    const got = await answer(w.me, c.id, { version: c.version });
    assert.equal(got.status, 200, JSON.stringify(got.json));
    assert.equal(got.json.status, 'answered');
    await w.advance(5000);
    const done = await card(c.id);
    assert.equal(done.status, 'done');
    assert.equal(done.closedBy, 'person');
    const again = await send({ title: 'Disk full', dedupeKey: 'disk' });
    assert.equal(again.status, 201);
    assert.notEqual(again.json.cardId, c.id);
  });

  it('Got it can be undone within the hold', async () => {
    const first = await send({ title: 'Disk full', dedupeKey: 'disk' });
    const got = await answer(w.me, first.json.cardId, { version: 1 });
    const undo = await w.me.request('POST', `/v1/cards/${first.json.cardId}/undo`);
    assert.equal(undo.json.status, 'pending');
    assert.equal(undo.json.version, got.json.version + 1);
    await w.advance(10_000);
    assert.equal((await card(first.json.cardId)).status, 'pending');
  });

  it('any + paused: 202 paused, counted, not shown; resume shows again', async () => {
    await w.ctl('POST', `/_sandbox/webhooks/${hook.id}/pause`);
    const r = await send({ title: 'while paused' });
    assert.equal(r.status, 202);
    assert.equal(r.json.result, 'paused');
    assert.equal((await counts()).paused, 1);
    assert.deepEqual((await w.me.request('GET', '/v1/cards')).json.cards, []);
    await w.ctl('POST', `/_sandbox/webhooks/${hook.id}/resume`);
    assert.equal((await send({ title: 'after' })).status, 201);
  });

  it('401 unknown_token for an address never made, replaced or removed', async () => {
    assert.equal((await send({ title: 'x' }, `${w.url}/in/never-made`)).json.code, 'unknown_token');
    const old = hook.url;
    const replaced = (await w.ctl('POST', `/_sandbox/webhooks/${hook.id}/replace`)).json;
    assert.notEqual(replaced.url, old);
    const r = await send({ title: 'x' }, old);
    assert.equal(r.status, 401);
    assert.equal(r.json.code, 'unknown_token');
    assert.equal((await send({ title: 'x' }, replaced.url)).status, 201);
    await w.ctl('DELETE', `/_sandbox/webhooks/${hook.id}`);
    assert.equal((await send({ title: 'x' }, replaced.url)).status, 401);
  });

  it('400 not_json, 413 too_large over 64 KB; no other header needed', async () => {
    assert.equal((await send('{"title": ')).json.code, 'not_json');
    assert.equal((await send('')).status, 400);
    const noType = await send({ title: 'sent without a content type' }, hook.url, {});
    assert.equal(noType.status, 201);
    const big = await send({ title: 'big', summary: 'x'.repeat(64 * 1024) });
    assert.equal(big.status, 413);
    assert.equal(big.json.code, 'too_large');
    const edge = JSON.stringify({ title: 'edge', pad: '' });
    const fits = await send(JSON.stringify({ title: 'edge', pad: 'y'.repeat(64 * 1024 - edge.length) }));
    assert.equal(fits.status, 201, 'exactly 64 KB is taken');
  });

  it('422 invalid names the field and says why; kind question and callbackUrl are refused', async () => {
    const cases: [unknown, string][] = [
      [{}, 'title'], [{ title: '' }, 'title'], [{ title: 5 }, 'title'], [{ title: 'x', summary: 3 }, 'summary'],
      [{ title: 'x', url: 'javascript:alert(1)' }, 'url'], [{ title: 'x', status: 'closed' }, 'status'],
      [{ title: 'x', severity: 'fatal' }, 'severity'], [{ title: 'x', dedupeKey: 7 }, 'dedupeKey'], [{ title: 'x', from: 9 }, 'from'],
      [{ title: 'x', kind: 'question' }, 'kind'], [{ title: 'x', callbackUrl: 'https://a.example/cb' }, 'callbackUrl'],
      [[{ title: 'x' }], 'body'], ['"just a string"', 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await send(body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.json.code, 'invalid');
      assert.equal(r.json.errors[0].field, field, JSON.stringify(body));
      assert.ok(r.json.errors[0].reason);
    }
  });

  it('shortens over-long text instead of refusing; a title is one line; unknown fields are ignored', async () => {
    const r = await send({ title: `${'T'.repeat(200)}`, summary: 'S'.repeat(500), from: 'F'.repeat(60), extra: { anything: true }, kind: 'update' });
    assert.equal(r.status, 201);
    const c = await card(r.json.cardId);
    assert.equal([...c.title].length, 140);
    assert.ok(c.title.endsWith('…'));
    assert.equal([...c.summary].length, 400);
    assert.equal([...c.from].length, 40);
    assert.equal(c.extra, undefined);
    const lines = await send({ title: 'line one\nline two' });
    assert.equal((await card(lines.json.cardId)).title, 'line one line two');
  });

  it('429 rate_limited over 60 a minute, with Retry-After; counted, not shown', async () => {
    for (let i = 0; i < 60; i++) assert.equal((await send({ title: `n${i}`, dedupeKey: 'same' })).status, i === 0 ? 201 : 200);
    const r = await send({ title: 'one too many' });
    assert.equal(r.status, 429);
    assert.equal(r.json.code, 'rate_limited');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.equal((await counts()).rateLimited, 1);
    assert.equal((await w.me.request('GET', '/v1/cards')).json.cards.length, 1);
    await w.advance(60_000);
    assert.equal((await send({ title: 'next minute' })).status, 201);
  });

  it('429 too_many_open once 50 of its notices wait on the person; repeats and resolves still pass', async () => {
    for (let i = 0; i < 50; i++) {
      assert.equal((await send({ title: `n${i}`, dedupeKey: `k${i}` })).status, 201);
      if (i === 49) break;
      if (i % 50 === 49) await w.advance(60_000);
    }
    const r = await send({ title: 'fifty-first', dedupeKey: 'k50' });
    assert.equal(r.status, 429);
    assert.equal(r.json.code, 'too_many_open');
    assert.equal((await counts()).tooManyOpen, 1);
    assert.equal((await send({ title: 'again', dedupeKey: 'k3' })).json.result, 'repeated');
    assert.equal((await send({ title: 'fixed', dedupeKey: 'k3', status: 'resolved' })).json.result, 'resolved');
    await w.advance(60_000);
    assert.equal((await send({ title: 'room again', dedupeKey: 'k50' })).status, 201);
  });

  it('Cloudflare\'s generic webhook payload is read as it is; its secret header is neither needed nor kept', async () => {
    const payload = {
      name: 'Workers alert', text: 'Worker "edge" exceeded CPU\nOn 3% of requests.', ts: 1700000000, account_id: 'abc',
      policy_id: 'p1', policy_name: 'CPU', alert_type: 'workers_alert', alert_correlation_id: 'corr-1', alert_event: 'ALERT_STATE_EVENT_START',
      data: { script_name: 'edge', occurrences: 4, dashboard_url: 'https://dash.cloudflare.com/x' },
    };
    const r = await send(payload, hook.url, { 'content-type': 'application/json', 'cf-webhook-auth': 'secret-value' });
    assert.equal(r.status, 201);
    assert.equal(r.json.count, 4);
    const c = await card(r.json.cardId);
    assert.equal(c.title, 'Worker "edge" exceeded CPU');
    assert.equal(c.summary, 'On 3% of requests.');
    assert.equal(c.from, 'Cloudflare');
    assert.equal(c.worker, 'edge');
    assert.equal(c.count, 4);
    assert.equal(c.url, 'https://dash.cloudflare.com/x');
    assert.ok(!JSON.stringify(await w.ctl('GET', `/_sandbox/cards/${c.id}`)).includes('secret-value'));
    // repeats by alert_correlation_id; the end event does not close it
    const end = await send({ ...payload, alert_event: 'ALERT_STATE_EVENT_END', data: { script_name: 'edge' } });
    assert.equal(end.json.result, 'repeated');
    assert.equal(end.json.count, 5);
    assert.equal((await card(c.id)).status, 'pending');
    const more = await send({ ...payload, data: { ...payload.data, occurrences: 9 } });
    assert.equal(more.json.count, 9);
    const workerField = await send({ ...payload, alert_correlation_id: 'corr-2', data: { worker: 'w2', url: 'https://example.com/a' } });
    const c2 = await card(workerField.json.cardId);
    assert.equal(c2.worker, 'w2');
    assert.equal(c2.url, 'https://example.com/a');
  });

  it('a machine sign-in sees notices (they belong to no computer)', async () => {
    const r = await send({ title: 'for everyone' });
    const far = (await w.ctl('POST', '/_sandbox/machines', { name: 'desktop' })).json;
    const there = await w.signIn({ machine: far, scopes: ['cards:read'] });
    assert.deepEqual((await there.request('GET', '/v1/cards')).json.cards.map((x: { id: string }) => x.id), [r.json.cardId]);
  });
});
