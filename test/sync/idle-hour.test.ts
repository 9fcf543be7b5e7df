import { strict as assert } from 'node:assert';
import { formatIdleHour, simulateIdleHour } from './idle-hour';

describe('sync: an idle hour stays far from every limit', () => {
  it('two windows, present, nothing happening: requests per limit class', async function () {
    this.timeout(180_000);
    const r = await simulateIdleHour({ stepMs: 12_500 });
    console.log(formatIdleHour(r));
    for (const c of ['read', 'write', 'answer', 'person'] as const) {
      assert.ok(r.classes[c].averagePercent < 10, `${c}: ${r.classes[c].averagePercent.toFixed(1)} % of its limit on average`);
      assert.ok(r.classes[c].peakPercent < 10, `${c}: peak minute ${r.classes[c].peakPercent.toFixed(1)} %`);
    }
    assert.equal(r.classes.answer.total, 0, 'nothing is answered by itself');
    // Waits: one held long-poll per 25 s is 2.4 a minute, 40 % of 6; that is the floor of a live
    // feed (see docs/decisions.md). The owner never holds more than one at a time.
    assert.ok(r.classes.wait.perMinute <= 2.5, `waits ${r.classes.wait.perMinute.toFixed(2)}/min`);
    // The busiest minute: three held waits, one more when a wait ends early. That was seen once
    // (4) in a fresh-clone run beside two host tiers on 2 cores, cause not traced; the service
    // allows 6 a minute, and the average above is the floor's own check.
    assert.ok(r.classes.wait.peakMinute <= 4, `busiest minute: ${r.classes.wait.peakMinute} waits`);
    assert.ok(r.classes.wait.total > 100, 'the feed owner did long-poll all hour');
    // Presence: here:true every 30 s (a write).
    assert.ok(r.classes.write.total >= 115 && r.classes.write.total <= 125, `writes ${r.classes.write.total}`);
  });
});
