// Timed work of the sandbox (hold ends, Later returns, waits ending) in time order. Jobs run with
// their own due time, so a manual clock moved by ten minutes replays each job at the moment it fell.
import type { Clock } from './context';
import { isManual } from './clock';

interface Job {
  at: number;
  seq: number;
  run: (at: number) => void;
}

export class Timeline {
  private readonly jobs = new Map<string, Job>();
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly clock: Clock,
    /** After jobs ran: the sandbox writes what they changed to its store. */
    private readonly afterRun?: () => void,
  ) {
    clock.onAdvance?.(() => this.runDue());
  }

  /** Schedules (or replaces) the job named `key` at `at`. */
  schedule(key: string, at: number, run: (at: number) => void): void {
    this.jobs.set(key, { at, seq: this.seq++, run });
    this.arm();
  }

  cancel(key: string): void {
    this.jobs.delete(key);
    this.arm();
  }

  clear(): void {
    this.jobs.clear();
    this.arm();
  }

  /** Runs every job that is due, earliest first (a job may schedule more). */
  runDue(): void {
    if (this.running) return;
    this.running = true;
    let ran = false;
    try {
      for (;;) {
        const now = this.clock.now();
        let next: [string, Job] | undefined;
        for (const entry of this.jobs) {
          const j = entry[1];
          if (j.at > now) continue;
          if (!next || j.at < next[1].at || (j.at === next[1].at && j.seq < next[1].seq)) next = entry;
        }
        if (!next) break;
        this.jobs.delete(next[0]);
        ran = true;
        next[1].run(next[1].at);
      }
    } finally {
      this.running = false;
      if (ran) this.afterRun?.();
    }
    this.arm();
  }

  /** On the real clock, one timer for the earliest job; the manual clock runs jobs on advance. */
  private arm(): void {
    if (isManual(this.clock) || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let earliest = Infinity;
    for (const j of this.jobs.values()) earliest = Math.min(earliest, j.at);
    if (earliest === Infinity) return;
    const delay = Math.max(0, Math.min(earliest - this.clock.now(), 2 ** 31 - 1));
    this.timer = setTimeout(() => this.runDue(), delay);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
