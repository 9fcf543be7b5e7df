// The sandbox's clocks: real time, or a manual clock that moves only when told
// (`--manual-clock`, POST /_sandbox/clock/advance), so tests of holds, Later and limits are exact.
import type { Clock } from './context';

export class RealClock implements Clock {
  now(): number {
    return Date.now();
  }
  onAdvance(_listener: () => void): void {
    // Real time moves by itself; timed work is driven by timers (see timeline.ts).
  }
}

/** The service's manual clock (the tests' client-side one is `ManualClock` in test/kit/clock.ts, which reads this). */
export class ManualServiceClock implements Clock {
  private current: number;
  private readonly listeners: (() => void)[] = [];

  /** Starts at the real time (whole seconds), so DPoP `iat` checks still hold at the start. */
  constructor(start: number = Math.floor(Date.now() / 1000) * 1000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance takes a non-negative number of ms');
    this.current += ms;
    for (const l of this.listeners) l();
    return this.current;
  }

  onAdvance(listener: () => void): void {
    this.listeners.push(listener);
  }
}

export function isManual(clock: Clock): boolean {
  return typeof clock.advance === 'function';
}
