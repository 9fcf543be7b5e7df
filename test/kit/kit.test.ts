// The kit's own rules, which the migrated tests lean on: the clock fires timers in order at their
// own time, a time moved elsewhere fires nothing, time never runs back, settling happens between
// timers; the wait names what it waited for.
import { strict as assert } from 'node:assert';
import { ManualClock } from './clock';
import { quietFor, until } from './until';

describe('kit: the manual clock', () => {
  it('advance fires each due timer at its own time, in order (ties as set), and stops at the target', () => {
    const c = new ManualClock({ start: 0 });
    const fired: string[] = [];
    c.setTimeout(() => fired.push(`b@${c.now()}`), 200);
    c.setTimeout(() => fired.push(`a@${c.now()}`), 100);
    c.setTimeout(() => fired.push(`a2@${c.now()}`), 100);
    c.setTimeout(() => fired.push(`late@${c.now()}`), 301);
    assert.equal(c.advance(300), 300);
    assert.deepEqual(fired, ['a@100', 'a2@100', 'b@200']);
    assert.equal(c.pending, 1);
  });

  it('a timer set while firing runs in the same advance when it falls due; a cancelled one never runs', () => {
    const c = new ManualClock({ start: 0 });
    const fired: number[] = [];
    c.setTimeout(() => { fired.push(c.now()); c.setTimeout(() => fired.push(c.now()), 50); }, 10);
    c.setTimeout(() => fired.push(-1), 20).cancel();
    c.advance(100);
    assert.deepEqual(fired, [10, 60]);
  });

  it('on a shared time source moved elsewhere (the service alone), nothing fires until the next advance, then at that time', () => {
    let t = 1_000;
    const source = { now: () => t, advance: (ms: number) => (t += ms) };
    const c = new ManualClock({ time: source });
    const fired: number[] = [];
    c.setTimeout(() => fired.push(c.now()), 500);
    source.advance(2_000);
    assert.deepEqual(fired, [], 'moving the service clock fires no client timer');
    assert.equal(c.now(), 3_000, 'but the client reads the same time');
    c.advance(0);
    assert.deepEqual(fired, [3_000], 'the overdue timer fires at the time it is now: time never runs back');
  });

  it('advanceSettled awaits settle before, between and after the timers it fires', async () => {
    const steps: string[] = [];
    const c = new ManualClock({ start: 0, settle: async () => { steps.push('settle'); } });
    c.setTimeout(() => steps.push('t1'), 10);
    c.setTimeout(() => steps.push('t2'), 20);
    await c.advanceSettled(30);
    assert.deepEqual(steps, ['settle', 't1', 'settle', 't2', 'settle', 'settle']);
    assert.equal(c.now(), 30);
  });

  it('advanceUntil steps until the condition holds, and throws past its bound', async () => {
    const c = new ManualClock({ start: 0 });
    let done = false;
    c.setTimeout(() => { done = true; }, 2_500);
    await c.advanceUntil(() => done, 1_000, 10_000);
    assert.equal(c.now(), 3_000);
    await assert.rejects(c.advanceUntil(() => false, 1_000, 3_000), /within 3000 ms of clock time/);
  });

  it('a clock on a time source that cannot move says so', () => {
    const c = new ManualClock({ time: { now: () => 5 } });
    assert.throws(() => c.advance(1), /cannot be moved/);
  });
});

describe('kit: until', () => {
  it('returns the first value the probe gives, past errors and false', async () => {
    let n = 0;
    const v = await until('the third try', () => {
      n++;
      if (n === 1) throw new Error('not yet');
      return n >= 3 ? `try ${n}` : false;
    }, 5_000, 1);
    assert.equal(v, 'try 3');
  });

  it('a timeout names what it waited for and the last error; the short form names the probe', async () => {
    await assert.rejects(until('the moon', () => { throw new Error('cloudy'); }, 30, 5), /timed out waiting for the moon: Error: cloudy/);
    const seen: number[] = [];
    await assert.rejects(until(() => seen.length === 1, 30), /timed out waiting for \(\)\s*=>\s*seen\.length\s*===\s*1/);
  });
});

describe('kit: quietFor', () => {
  it('waits the time it is given, and only when told what must not happen meanwhile', async () => {
    const t = Date.now();
    await quietFor('nothing more said', 50);
    assert.ok(Date.now() - t >= 45, 'waited');
    await assert.rejects(quietFor('', 1), /the absence it waits out/);
  });
});
