// The sandbox's clocks: real time (which a test may move forward at once, POST
// /_sandbox/clock/jump), or a manual clock that moves only when told (`--manual-clock`, POST
// /_sandbox/clock/advance), so tests of holds, Later and limits are exact.
import type { Clock } from './context';

export class RealClock implements Clock {
  /** How far `jump` has moved this clock ahead of the computer's. */
  private ahead = 0;
  private readonly listeners: (() => void)[] = [];

  now(): number {
    return Date.now() + this.ahead;
  }

  /**
   * Moves the time forward by `ms` at once, then runs on (POST /_sandbox/clock/jump): a test of a
   * minute-long wait (the end of Later) takes seconds. Timed work that falls due runs at its own
   * time. Apps' DPoP proofs carry their computer's time: a jump past the 60 s window makes them
   * look stale (a client then corrects its time from the service's Date).
   */
  jump(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('jump takes a non-negative number of ms');
    this.ahead += ms;
    for (const l of this.listeners) l();
    return this.now();
  }

  /** Timed work is driven by timers (see timeline.ts); after a jump it catches up here. */
  onAdvance(listener: () => void): void {
    this.listeners.push(listener);
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
