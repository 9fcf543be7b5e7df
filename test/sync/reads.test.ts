// Reads after an hour of use: the person's reads are theirs (never paused by the background
// budget), one card is read once however many parts want it, and the feed keeps going while the
// person presses.
import { strict as assert } from 'node:assert';
import { ApiClient } from '../../src/api/client';
import type { RequestAuth } from '../../src/api/client';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/api/http';
import { AbortedError } from '../../src/api/runtime';
import { CardReads } from '../../src/sync/reads';
import { ManualClock } from '../kit/clock';
import { makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';
import { pressOutsideThePath } from '../../src/sync/session';

const MIN = 60_000;

describe('reads: coalesced, and the person\'s own', () => {
  /** A transport that holds every answer until the test releases it. */
  function held() {
    const seen: HttpRequest[] = [];
    const waiting: (() => void)[] = [];
    const card = { id: 'req_1', version: 2, status: 'pending', turn: 'you', kind: 'choice', title: 'T' };
    const transport: HttpTransport = {
      send(req) {
        seen.push(req);
        return new Promise<HttpResponse>((resolve) => waiting.push(() => resolve({
          status: 200, headers: { 'content-type': 'application/json', etag: '"e1"' }, text: JSON.stringify({ card: { ...card, id: new URL(req.url).pathname.split('/').pop() } }),
        })));
      },
      async close() {},
    };
    const auth: RequestAuth = { accessToken: async () => 'at', renewAfterRejection: async () => 'at2', proof: async () => 'p' };
    const timers = new ManualClock({ start: 0 });
    const counted: { byPerson?: boolean }[] = [];
    const api = new ApiClient({ baseUrl: 'http://svc', transport, auth, clock: timers, timers, userAgent: 'u/1', onRequest: (i) => counted.push(i) });
    let budgetWaits = 0;
    const reads = new CardReads({ api, clock: timers, beforeBackgroundRead: async () => { budgetWaits++; } });
    const release = async () => {
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      while (waiting.length) waiting.shift()!();
    };
    return { reads, seen, release, counted, timers, budgetWaits: () => budgetWaits };
  }

  it('concurrent reads of one card send one request; every caller gets the card', async () => {
    const { reads, seen, release } = held();
    const all = Promise.all([reads.read('req_1'), reads.read('req_1', { byPerson: true }), reads.read('req_1'), reads.read('req_2')]);
    await release();
    const cards = await all;
    assert.deepEqual(cards.map((c) => c.id), ['req_1', 'req_1', 'req_1', 'req_2']);
    assert.deepEqual(seen.map((r) => new URL(r.url).pathname), ['/v1/cards/req_1', '/v1/cards/req_2'], 'one request per card');
    // Settled: the next read is a request of its own, conditional on the ETag now held.
    const again = reads.read('req_1');
    await release();
    await again;
    assert.equal(seen.length, 3);
    assert.equal(seen[2]!.headers['if-none-match'], '"e1"');
  });

  it('a caller that leaves does not end the read for the others', async () => {
    const { reads, seen, release } = held();
    const leaving = new AbortController();
    const a = reads.read('req_1', { signal: leaving.signal });
    const b = reads.read('req_1');
    await new Promise((r) => setImmediate(r));
    leaving.abort();
    await assert.rejects(a, (e: unknown) => e instanceof Error && e.name === 'AbortedError');
    await release();
    assert.equal((await b).id, 'req_1');
    assert.equal(seen.length, 1);
  });

  it('a read whose caller left before it was sent sends nothing (a background part after sync stopped)', async () => {
    const { reads, seen, release } = held();
    const stopped = new AbortController();
    stopped.abort();
    const background = reads.read('req_1', { signal: stopped.signal });
    const person = reads.read('req_2', { signal: stopped.signal, byPerson: true });
    await assert.rejects(background, AbortedError);
    await assert.rejects(person, AbortedError);
    await release();
    assert.deepEqual(seen, [], 'no request');
  });

  it('reads of a card just pressed are the person\'s: no budget wait, counted as theirs', async () => {
    const { reads, release, counted, budgetWaits, timers } = held();
    reads.pressed('req_1');
    const p = reads.read('req_1');
    await release();
    await p;
    assert.equal(budgetWaits(), 0, 'not held back by the background budget');
    assert.equal(counted[0]!.byPerson, true);
    timers.advance(MIN);
    const q = reads.read('req_1');
    await release();
    await q;
    assert.equal(budgetWaits(), 1, 'long after the press it is background again');
    assert.equal(counted[1]!.byPerson, false);
  });
});

describe('reads: the feed keeps going while the person presses (sandbox)', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('ten presses in a minute, then a new card reaches the model within 1 s; no background pause', async () => {
    const logs: string[] = [];
    const core = w.core({ logger: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) } });
    core.feed.setFocused(true);
    await signInCore(w, core);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await w.card({ title: `card ${i}` })).id);
    await w.advanceUntil(() => ids.every((id) => core.cards.get(id) !== undefined), 1000, 2 * MIN);
    await w.advance(2 * MIN); // a quiet start: the budget's minute holds nothing of the arrivals
    logs.length = 0;
    for (const id of ids) {
      // As the panel does on opening: the person's read of the card, then the press.
      const seen = await core.cards.read(id);
      const press = pressOutsideThePath(core, core.gestures.fromUiEvent('panel'), { id, version: seen.version }, { type: 'answer', answer: { choiceIds: ['a'] } });
      const sent = press.send();
      await settle(w.transports);
      await sent;
      await w.advance(5_500);
    }
    const c = await w.card({ title: 'arrives while the person works' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 100, 1000);
    assert.ok(!logs.some((l) => /background reads paused/.test(l)), `no pause: ${logs.filter((l) => /paused/.test(l)).join('; ')}`);
  });
});
