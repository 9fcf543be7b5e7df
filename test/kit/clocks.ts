// The kit's small clocks, so no test writes its own `{ now: () => … }`: real time, a time that
// stays, a computer's clock set off from another, and a clock's `now` as a plain function (the
// `now` option of `signIn` and `dpopProof`). A time that a test moves is a `ManualClock`
// (clock.ts): `new ManualClock({ start })`, then `advance` / `moveTo`.
import { systemClock, type Clock, type Timers } from '../../src/api/runtime';
import type { ManualClock } from './clock';

/** Real time (Date.now), as the editor has it. */
export const realClock: Clock = systemClock;

/** The card model's hold clock on real time, with no skew to the service. */
export const realHoldClock: Clock & { skewMs(): number } = { now: () => Date.now(), skewMs: () => 0 };

/** A clock that stays at `at` (epoch ms, or an ISO date). */
export function fixedClock(at: number | string): Clock {
  const t = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(t)) throw new Error(`fixedClock: not a time: ${String(at)}`);
  return { now: () => t };
}

/** `clock`'s time moved by `offsetMs` (a computer's clock ahead, or behind with a negative offset). */
export function offsetClock(clock: Clock, offsetMs: number): Clock {
  return { now: () => clock.now() + offsetMs };
}

/** `clock.now` as a plain function, bound to its clock. */
export function nowOf(clock: Clock): () => number {
  return () => clock.now();
}

/** Moves a manual clock to `at` (never back: time does not run back). */
export function moveTo(clock: ManualClock, at: number): number {
  const now = clock.now();
  if (at < now) throw new Error(`moveTo: ${at} is before the clock's ${now}; time does not run back`);
  return clock.advance(at - now);
}

/**
 * Timers that fire on the next turn of the event loop whatever they were set for (retries with no
 * real waiting); each asked-for wait is noted in `slept` when given.
 */
export function immediateTimers(slept?: number[]): Timers {
  return {
    setTimeout(fn, ms) {
      slept?.push(ms);
      const h = setImmediate(fn);
      return { cancel: () => clearImmediate(h) };
    },
  };
}
