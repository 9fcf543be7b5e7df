// When the background reads run: the full read of cards and assistants (at start, every 10
// minutes, on demand), each read's outcome turned into connection state, and the waits that keep
// background reads inside their share of the limits. Stopping ends every wait at once.
import { OAuthRefusalError } from '../api/errors';
import { sleep } from '../api/runtime';
import type { Logger, TimerHandle, Timers } from '../api/runtime';
import type { RequestBudget } from './budget';

/** Full read of cards and assistants (cards coming into reach make no change). */
export const FULL_READ_MS = 10 * 60_000;

export interface ReadScheduleOptions {
  budget: RequestBudget;
  timers: Timers;
  logger: Logger;
  readCards: () => Promise<void>;
  readAssistants: () => Promise<void>;
  /** A read succeeded / failed: the session's connection state. */
  onSuccess: () => void;
  onFailure: (e: unknown) => void;
}

export class ReadSchedule {
  private running = false;
  private timer: TimerHandle | undefined;
  /** Aborted when syncing stops, so no background wait outlives it. */
  private abort = new AbortController();
  /** Periodic full reads begun (the bench tells their reads apart from a prompt's). */
  private periodicBegun = 0;

  constructor(private readonly o: ReadScheduleOptions) {}

  get periodicReads(): number {
    return this.periodicBegun;
  }

  /** Ends with the sync: background reads and their retry waits. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Syncing begins: waits may run again (the periodic read starts with `schedule`). */
  begin(): void {
    this.running = true;
    this.abort = new AbortController();
  }

  /** Syncing stops: every wait ends and no periodic read follows. */
  stop(): void {
    this.running = false;
    this.abort.abort();
    this.timer?.cancel();
  }

  /** Everything once, reported as connection state. */
  async fullRead(): Promise<void> {
    await this.guard(() => this.fullReadNow());
  }

  /** Everything once; a failure is the caller's. */
  async fullReadNow(): Promise<void> {
    await this.o.readCards();
    await this.o.readAssistants().catch((e: unknown) => {
      // Without assistants:read the cards still work.
      if (!(e instanceof OAuthRefusalError)) throw e;
    });
    this.o.onSuccess();
  }

  /** The next periodic full read, FULL_READ_MS from now. */
  schedule(): void {
    this.timer?.cancel();
    this.timer = this.o.timers.setTimeout(() => {
      if (!this.running) return;
      this.periodicBegun++;
      void this.fullRead().catch(() => undefined).finally(() => {
        if (this.running) this.schedule();
      });
    }, FULL_READ_MS);
  }

  /** Runs a read, turning failures into connection state (and re-throwing). */
  async guard(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.o.onSuccess();
    } catch (e) {
      this.o.onFailure(e);
      throw e;
    }
  }

  /** Waits until a background read (a long-poll when `waits`) fits the budget. */
  async budgetWait(waits: boolean, signal?: AbortSignal): Promise<void> {
    const d = this.o.budget.delayFor(waits ? ['wait', 'person'] : ['read', 'person']);
    if (d > 0) {
      this.o.logger.info('background reads paused to stay inside the limits', { delayMs: d });
      await sleep(this.o.timers, d, signal ?? this.abort.signal);
    }
  }
}
