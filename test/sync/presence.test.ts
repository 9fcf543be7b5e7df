import { strict as assert } from 'node:assert';
import { ManualClock } from '../kit/clock';
import { silentLogger } from '../../src/api/runtime';
import { PresencePinger } from '../../src/sync/presence';

describe('sync: presence pinger on a fake clock', () => {
  it('here:true at once and every 30 s while here; here:false once on leaving; then silence', () => {
    const t = new ManualClock({ start: 0 });
    const sent: [number, boolean][] = [];
    const p = new PresencePinger(async (here) => void sent.push([t.now(), here]), t, silentLogger);
    t.advance(10_000);
    assert.deepEqual(sent, [], 'nothing while nobody is here');
    p.setHere(true);
    p.setHere(true); // repeated signals change nothing
    t.advance(95_000);
    assert.deepEqual(sent, [[10_000, true], [40_000, true], [70_000, true], [100_000, true]]);
    p.setHere(false);
    p.setHere(false);
    t.advance(300_000);
    assert.deepEqual(sent.slice(4), [[105_000, false]]);
  });

  it('disabled (signed out): no pings and no here:false; enabling while here pings again', () => {
    const t = new ManualClock({ start: 0 });
    const sent: boolean[] = [];
    const p = new PresencePinger(async (here) => void sent.push(here), t, silentLogger);
    p.setEnabled(false);
    p.setHere(true);
    t.advance(120_000);
    assert.deepEqual(sent, []);
    p.setEnabled(true);
    t.advance(30_000);
    assert.deepEqual(sent, [true, true]);
  });

  it('dispose while here sends here:false exactly once', async () => {
    const t = new ManualClock({ start: 0 });
    const sent: boolean[] = [];
    const p = new PresencePinger(async (here) => void sent.push(here), t, silentLogger);
    p.setHere(true);
    await p.dispose();
    await p.dispose();
    t.advance(100_000);
    assert.deepEqual(sent, [true, false]);
  });
});
