// Rate limits per sign-in per class (reads 300, writes 60, answers 30, waits 6 a minute) and per
// person (1,200 a minute across every app): 429 rate_limited with Retry-After; refused calls do
// not count. DESIGN: assistants and non-waiting changes are reads, presence is a write.
import assert from 'node:assert/strict';
import { ALL_SCOPES, answer, makeWorld, type World } from '../kit';
import type { Answer } from './helpers';

describe('sandbox rate limits', function () {
  this.timeout(60_000);
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  const limited = (r: Answer, retryAfter?: number) => {
    assert.equal(r.status, 429, r.text);
    assert.equal(r.json.code, 'rate_limited');
    const ra = Number(r.headers.get('retry-after'));
    assert.ok(ra >= 1 && ra <= 60, `Retry-After ${ra}`);
    if (retryAfter !== undefined) assert.equal(ra, retryAfter);
  };

  it('reads: 300 a minute per sign-in, every GET counts (cards, assistants, me, non-waiting changes); Retry-After says when', async () => {
    const paths = ['/v1/cards', '/v1/assistants', '/v1/changes', '/v1/me'];
    for (let i = 0; i < 300; i++) {
      const r = await w.me.request('GET', paths[i % 4]!);
      assert.equal(r.status, 200, `read ${i}: ${r.text}`);
    }
    await w.advance(20_000);
    limited(await w.me.request('GET', '/v1/cards'), 40);
    limited(await w.me.request('GET', '/v1/assistants'));
    limited(await w.me.request('GET', '/v1/me'));
    // writes are their own class
    assert.equal((await w.me.request('POST', '/v1/presence', { body: { here: true } })).status, 204);
    // refused calls did not count: a minute after the first reads, all 300 are free again
    await w.advance(40_000);
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 200);
  });

  it('writes: 60 a minute per sign-in (presence counts as a write)', async () => {
    for (let i = 0; i < 60; i++) {
      const r = await w.me.request('POST', '/v1/presence', { body: { here: true } });
      assert.equal(r.status, 204, `write ${i}: ${r.text}`);
    }
    limited(await w.me.request('POST', '/v1/presence', { body: { here: true } }), 60);
    const c = await w.card();
    limited(await w.me.request('POST', `/v1/cards/${c.id}/later`, { body: { until: '1h' } }));
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 200, 'reads are unaffected');
    await w.advance(60_000);
    assert.equal((await w.me.request('POST', '/v1/presence', { body: { here: true } })).status, 204);
  });

  it('answers: 30 a minute, answers and words written on a card together', async () => {
    const cards = [];
    for (let i = 0; i < 31; i++) cards.push(await w.card());
    for (let i = 0; i < 15; i++) assert.equal((await answer(w.me, cards[i]!.id, { version: 1, choiceIds: ['a'] })).status, 200);
    for (let i = 15; i < 30; i++) {
      const r = await w.me.request('POST', `/v1/cards/${cards[i]!.id}/messages`, { body: { body: 'go on' } });
      assert.equal(r.status, 200, r.text);
    }
    limited(await answer(w.me, cards[30]!.id, { version: 1, choiceIds: ['a'] }));
    limited(await w.me.request('POST', `/v1/cards/${cards[30]!.id}/messages`, { body: { body: 'x' } }));
    // other writes still pass
    assert.equal((await w.me.request('POST', `/v1/cards/${cards[30]!.id}/later`, { body: { until: '1h' } })).status, 200);
  });

  it('waits: 6 a minute of GET /v1/changes that waits; non-waiting reads of the feed are reads', async () => {
    const start = (await w.me.request('GET', '/v1/changes')).json.cursor;
    await w.card(); // so each wait answers at once
    for (let i = 0; i < 6; i++) {
      const r = await w.me.request('GET', `/v1/changes?after=${start}&wait=25`);
      assert.equal(r.status, 200, r.text);
    }
    limited(await w.me.request('GET', `/v1/changes?after=${start}&wait=5`));
    assert.equal((await w.me.request('GET', `/v1/changes?after=${start}`)).status, 200);
    assert.equal((await w.me.request('GET', `/v1/changes?after=${start}&wait=0`)).status, 200);
  });

  it('per sign-in: another sign-in of the person has its own class budgets', async () => {
    for (let i = 0; i < 60; i++) await w.me.request('POST', '/v1/presence', { body: { here: true } });
    limited(await w.me.request('POST', '/v1/presence', { body: { here: true } }));
    const other = await w.signIn({ scopes: ALL_SCOPES, machineName: 'desktop' });
    assert.equal((await other.request('POST', '/v1/presence', { body: { here: true } })).status, 204);
  });

  it('per person: 1,200 a minute across all their sign-ins', async () => {
    const signIns = [w.me];
    for (let i = 0; i < 4; i++) signIns.push(await w.signIn({ scopes: ALL_SCOPES, machineName: `pc-${i}` }));
    let n = 0;
    for (const s of signIns.slice(0, 4)) {
      for (let i = 0; i < 300; i++) {
        const r = await s.request('GET', '/v1/cards?whole=0');
        assert.equal(r.status, 200, `call ${n}: ${r.text}`);
        n++;
      }
    }
    const fifth = signIns[4]!;
    const r = await fifth.request('GET', '/v1/cards');
    limited(r);
    assert.match(r.json.detail, /per-person/);
    limited(await fifth.request('POST', '/v1/presence', { body: { here: true } }));
    await w.advance(60_000);
    assert.equal((await fifth.request('GET', '/v1/cards')).status, 200);
  });
});
