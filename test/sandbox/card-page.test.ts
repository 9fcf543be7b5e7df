// The card's `url` is served: the service's own page for the card, where a high-stakes card is
// answered (never through /v1). Card text is escaped.
import assert from 'node:assert/strict';
import { makeWorld, type World } from './world';

describe('sandbox card page', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('shows the card at its url with its text escaped; 404 for an unknown card', async () => {
    const c = await w.card({ kind: 'approval', highStakes: true, title: '<script>alert(1)</script> Pay $4,800?', summary: '<img src=x onerror=alert(2)>' });
    const card = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    const res = await fetch(card.url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await res.text();
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; Pay $4,800?'));
    assert.match(html, /High stakes/);
    assert.equal((await fetch(`${w.url}/cards/req_nothing`)).status, 404);
  });

  it('a high-stakes card is answered on the service page: recorded as from the service, heard after the hold', async () => {
    const c = await w.card({ kind: 'approval', highStakes: true, title: 'Publish?' });
    const refused = await w.me.request('POST', `/v1/cards/${c.id}/answer`, { body: { version: 1, approved: true }, headers: { 'idempotency-key': 'k1' } });
    assert.equal(refused.json.code, 'high_stakes');
    const res = await fetch(`${w.url}/cards/${c.id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'version=1&approved=true' });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Answered/);
    const card = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    assert.equal(card.status, 'answered');
    assert.equal(card.answeredFrom.app, 'The service (web page)');
    await w.advance(5000);
    const heard = (await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`)).json.heard;
    assert.deepEqual(heard[0].body, { version: 1, approved: true });
    const stale = await fetch(`${w.url}/cards/${c.id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'version=1&approved=false' });
    assert.equal(stale.status, 409);
  });
});
