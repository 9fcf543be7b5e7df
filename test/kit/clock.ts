// The one manual clock of the tests: a Clock (now) and Timers (setTimeout) that move only when a
// test says so. On its own it keeps its own time (pure schedule tests, the sign-in-only server);
// in a world it reads and moves the sandbox's manual clock, so the service and the client core
// share one time.
import type { Clock, TimerHandle, Timers } from '../../src/api/runtime';

/** Where the time is kept: the clock's own, or a sandbox's manual clock (`RunningSandbox.clock`). */
export interface TimeSource {
  now(): number;
  advance?(ms: number): number;
}

interface Timer {
  at: number;
  fn: () => void;
}

export interface ManualClockOptions {
  /** The starting time of a clock that keeps its own (default: the real time in whole seconds, so DPoP `iat` checks hold). */
  start?: number;
  /** Read and move this time instead (a sandbox's manual clock). Moving it elsewhere moves this clock too. */
  time?: TimeSource;
  /** Awaited before, between and after the timers `advanceSettled` fires: lets loopback work finish at each step. */
  settle?: () => Promise<void>;
}

export class ManualClock implements Clock, Timers {
  private readonly time: TimeSource;
  private readonly settle: () => Promise<void>;
  private seq = 0;
  private readonly queue = new Map<number, Timer>();
  /** Called when a timer is set: `runTimersUntil` waits on it while the code under test works. */
  private readonly onTimerSet = new Set<() => void>();

  constructor(o: ManualClockOptions = {}) {
    let own = o.start ?? Math.floor(Date.now() / 1000) * 1000;
    this.time = o.time ?? { now: () => own, advance: (ms) => (own += ms) };
    this.settle = o.settle ?? (async () => undefined);
  }

  now(): number {
    return this.time.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.queue.set(id, { at: this.now() + Math.max(0, ms), fn });
    for (const f of this.onTimerSet) f();
    return { cancel: () => this.queue.delete(id) };
  }

  /** Timers set and not yet fired or cancelled. */
  get pending(): number {
    return this.queue.size;
  }

  /**
   * Moves time forward by `ms`, firing each timer that falls due at its own time, in order (ties
   * in the order they were set). Synchronous: for code that does no I/O between timers.
   * A time source moved by someone else (`sb.advance`: only the service's clock) fires nothing;
   * timers it made overdue fire at the next advance, at the time it is then.
   */
  advance(ms: number): number {
    const target = this.now() + ms;
    for (let t = this.nextDue(target); t; t = this.nextDue(target)) this.fire(t);
    this.moveTo(target);
    return this.now();
  }

  /** `advance`, letting loopback work settle (the `settle` option) before, between and after timers. */
  async advanceSettled(ms: number): Promise<void> {
    await this.settle();
    const target = this.now() + ms;
    for (let t = this.nextDue(target); t; t = this.nextDue(target)) {
      this.fire(t);
      await this.settle();
    }
    this.moveTo(target);
    await this.settle();
  }

  /** `advanceSettled(stepMs)` until `done()` holds; throws past `maxMs` of clock time. */
  async advanceUntil(done: () => boolean, stepMs = 1000, maxMs = 120_000): Promise<void> {
    let spent = 0;
    await this.settle();
    while (!done() && spent < maxMs) {
      await this.advanceSettled(stepMs);
      spent += stepMs;
    }
    if (!done()) throw new Error(`condition not reached within ${maxMs} ms of clock time`);
  }

  /**
   * Runs the code under test from timer to timer until `done()`. The clock moves only while the
   * code waits on a timer: with none pending, it is still working (a file read, a proof signed on
   * the thread pool), and the wait is for that work, in real time, up to `realMs` at a time, not
   * for a quiet window guessed in event-loop turns (#36: at load 14 a device flow's attestation
   * outlasted 3,000 such turns, and the clock ran 3,000 s past it). Each timer fires at its own time.
   */
  async runTimersUntil(done: () => boolean, o: { what: string; maxMs?: number; realMs?: number }): Promise<void> {
    const maxMs = o.maxMs ?? 120_000;
    const realMs = o.realMs ?? 30_000;
    const start = this.now();
    await this.settle();
    while (!done()) {
      if (this.now() - start > maxMs) throw new Error(`${o.what}: not reached within ${maxMs} ms of clock time`);
      if (this.queue.size === 0) {
        // Working: wait for a timer to be set, or for done (checked every 10 ms), up to realMs.
        const until = Date.now() + realMs;
        await new Promise<void>((resolve, reject) => {
          const check = setInterval(() => {
            if (done() || this.queue.size > 0) finish();
            else if (Date.now() > until) { finish(); reject(new Error(`${o.what}: no timer set and not reached within ${realMs} ms of real time`)); }
          }, 10);
          const finish = () => { clearInterval(check); this.onTimerSet.delete(finish); resolve(); };
          this.onTimerSet.add(finish);
        });
        continue;
      }
      const next = this.nextDue(Number.POSITIVE_INFINITY)!;
      this.fire(next);
      await this.settle();
    }
  }

  private nextDue(target: number): [number, Timer] | undefined {
    let next: [number, Timer] | undefined;
    for (const e of this.queue) {
      if (e[1].at <= target && (!next || e[1].at < next[1].at || (e[1].at === next[1].at && e[0] < next[0]))) next = e;
    }
    return next;
  }

  private fire([id, t]: [number, Timer]): void {
    this.moveTo(t.at);
    this.queue.delete(id);
    t.fn();
  }

  /** Time never runs back: an overdue timer fires at the time it is now. */
  private moveTo(at: number): void {
    const now = this.now();
    if (at <= now) return;
    if (!this.time.advance) throw new Error('this time source cannot be moved (a sandbox on real time)');
    this.time.advance(at - now);
  }
}
