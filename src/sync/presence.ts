// Presence: here:true every 30 s while the editor says the person is here (it lasts 75 s on the
// service), and here:false once when they leave. Nothing is sent while nobody is here.
import type { Logger, TimerHandle, Timers } from '../api/runtime';

export const PRESENCE_INTERVAL_MS = 30_000;

export class PresencePinger {
  private here = false;
  private announced = false;
  private timer: TimerHandle | undefined;
  private enabled = true;

  constructor(
    private readonly send: (here: boolean) => Promise<void>,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly intervalMs = PRESENCE_INTERVAL_MS,
  ) {}

  get isHere(): boolean {
    return this.here;
  }

  setHere(here: boolean): void {
    if (here === this.here) return;
    this.here = here;
    if (here) {
      this.ping();
    } else {
      this.timer?.cancel();
      this.timer = undefined;
      if (this.announced) {
        this.announced = false;
        void this.send(false).catch((e: unknown) => this.logger.warn('presence here:false failed', { error: String(e) }));
      }
    }
  }

  /** Signed out / not allowed: stop pinging (without a final here:false, which would fail). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) {
      this.timer?.cancel();
      this.timer = undefined;
      this.announced = false;
    } else if (this.here && !this.timer) {
      this.ping();
    }
  }

  /** Leaving (window closes): here:false once if we said here:true. */
  async dispose(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.here && this.announced) {
      this.here = false;
      this.announced = false;
      await this.send(false).catch(() => undefined);
    }
    this.here = false;
  }

  private ping(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (!this.here || !this.enabled) return;
    this.announced = true;
    void this.send(true).catch((e: unknown) => this.logger.warn('presence ping failed', { error: String(e) }));
    this.timer = this.timers.setTimeout(() => this.ping(), this.intervalMs);
  }
}
