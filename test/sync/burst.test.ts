// A burst of cards (assistants asking many at once) against the sandbox on its manual clock: each
// card reaches the model quickly, and no limit class goes over half of its limit in any minute.
// The same burst as the host bench's (scripts/bench.mjs --only burst): 20 cards, each made 300 ms
// after the previous one showed. Times are the sandbox's (requests take none of it here; the host
// bench measures the real thing).
import { strict as assert } from 'node:assert';
import { LIMITS_PER_MINUTE, RequestBudget } from '../../src/sync/budget';
import type { LimitClass } from '../../src/sync/budget';
import { makeTestWorld, signInCore } from './harness';
import type { TestWorld } from './harness';

const CLASSES: LimitClass[] = ['read', 'write', 'answer', 'wait', 'person'];

describe('sync: a burst of cards', () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await makeTestWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('20 cards 300 ms apart: each in the model within 500 ms, no class over half its limit in any minute', async function () {
    this.timeout(120_000);
    const sent = new RequestBudget(w.timers.clock);
    const busiest = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<LimitClass, number>;
    const core = w.core({
      onRequest: (r) => {
        sent.record(r.method, r.path, r.waits, r.byPerson ?? false);
        for (const c of CLASSES) busiest[c] = Math.max(busiest[c], sent.lastMinute(c));
      },
    });
    core.feed.setFocused(true);
    await signInCore(w, core);
    await w.timers.until(() => core.feed.isOwner(), 1000, 60_000);
    await w.timers.advance(60_000); // a quiet minute first, as in the host bench
    const took: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = w.sb.clock.now();
      const c = await w.card({ title: `burst ${i}` });
      await w.timers.until(() => core.cards.get(c.id) !== undefined, 10, 30_000);
      took.push(w.sb.clock.now() - t0);
      await w.timers.advance(300);
    }
    await w.timers.advance(2 * 60_000); // the tail: back to the long-poll
    const sorted = [...took].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
    for (const c of CLASSES) {
      assert.ok(busiest[c] <= LIMITS_PER_MINUTE[c] / 2, `${c}: ${busiest[c]} in a minute, limit ${LIMITS_PER_MINUTE[c]}`);
    }
    assert.ok(p95 < 500, `p95 ${p95} ms of sandbox time (${took.join(', ')})`);
    console.log(`      burst: p50 ${sorted[Math.ceil(0.5 * sorted.length) - 1]} ms, p95 ${p95} ms (sandbox time); busiest minute: ${CLASSES.map((c) => `${c} ${busiest[c]}/${LIMITS_PER_MINUTE[c]}`).join(', ')}`);
  });
});
