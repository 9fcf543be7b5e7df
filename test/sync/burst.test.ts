// A burst of cards (assistants asking many at once) against the sandbox on its manual clock: each
// card reaches the model through the change feed by the core's next quick read, and no limit class
// goes over half of its limit in any minute. The same burst as the host bench's (scripts/bench.mjs
// --only burst): 20 cards, each made 300 ms after the previous one showed. On the manual clock
// requests take no time: the sandbox time a card takes is only the core's own waits (its feed
// read pace), so that is what this checks; how fast it really is belongs to the bench.
import { strict as assert } from 'node:assert';
import { LIMITS_PER_MINUTE, RequestBudget } from '../../src/sync/budget';
import { BURST_POLL_MS } from '../../src/sync/feed-loop';
import type { LimitClass } from '../../src/sync/budget';
import { makeWorld, signInCore } from '../kit';
import type { World } from '../kit';

const CLASSES: LimitClass[] = ['read', 'write', 'answer', 'wait', 'person'];

describe('sync: a burst of cards', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('20 cards 300 ms apart: each in the model from the feed, with no full read, by the next quick feed read (the core waits at most BURST_POLL_MS), no class over half its limit in any minute', async function () {
    this.timeout(120_000);
    const sent = new RequestBudget(w.clock);
    const busiest = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<LimitClass, number>;
    const reads: string[] = [];
    const core = w.core({
      onRequest: (r) => {
        if (r.method === 'GET') reads.push(r.path);
        sent.record(r.method, r.path, r.waits, r.byPerson ?? false);
        for (const c of CLASSES) busiest[c] = Math.max(busiest[c], sent.lastMinute(c));
      },
    });
    core.feed.setFocused(true);
    await signInCore(w, core);
    await w.advanceUntil(() => core.feed.isOwner(), 1000, 60_000);
    await w.advance(60_000); // a quiet minute first, as in the host bench
    const took: number[] = [];
    const readsBefore = reads.length;
    for (let i = 0; i < 20; i++) {
      const t0 = w.sb.clock.now();
      const c = await w.card({ title: `burst ${i}` });
      await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 10, 30_000);
      took.push(w.sb.clock.now() - t0);
      await w.advance(300);
    }
    const burstReads = reads.slice(readsBefore);
    await w.advance(2 * 60_000); // the tail: back to the long-poll
    const sorted = [...took].sort((a, b) => a - b);
    for (const c of CLASSES) {
      assert.ok(busiest[c] <= LIMITS_PER_MINUTE[c] / 2, `${c}: ${busiest[c]} in a minute, limit ${LIMITS_PER_MINUTE[c]}`);
    }
    // Each card: no more sandbox time than one quick read's pace (the core's own wait), and the
    // cards came from the feed, never from reading the whole list again.
    for (const [i, ms] of took.entries()) assert.ok(ms <= BURST_POLL_MS, `card ${i}: ${ms} ms of sandbox time, over one quick read (${BURST_POLL_MS} ms): ${took.join(', ')}`);
    assert.ok(burstReads.includes('/v1/changes'), `the feed was read: ${burstReads.join(' ')}`);
    assert.deepEqual(burstReads.filter((p) => p === '/v1/cards'), [], 'no full read in the burst');
    console.log(`      burst: the core's own wait per card p50 ${sorted[Math.ceil(0.5 * sorted.length) - 1]} ms, max ${sorted[sorted.length - 1]} ms (sandbox time); busiest minute: ${CLASSES.map((c) => `${c} ${busiest[c]}/${LIMITS_PER_MINUTE[c]}`).join(', ')}`);
  });
});
