// Whether this window holds the change-feed long-poll. The focused window claims the lease; while
// syncing, the holder renews it and any window takes it once the holder is gone (feed-lease.ts).
import { Emitter } from '../api/runtime';
import type { Logger, TimerHandle, Timers } from '../api/runtime';
import type { FeedOwnership } from './contract';
import { FEED_LEASE_RENEW_MS } from './feed-lease';
import type { FeedLease } from './feed-lease';

export interface FeedOwnerOptions {
  lease: FeedLease;
  timers: Timers;
  logger: Logger;
  /** Ownership changed: the feed ends its current wait (long-poll now, or stop long-polling). */
  onChange: (owner: boolean) => void;
}

export class FeedOwner implements FeedOwnership {
  private owner = false;
  private checking = false;
  private timer: TimerHandle | undefined;
  private readonly ownerE = new Emitter<boolean>();
  readonly onDidChangeOwner = this.ownerE.event;

  constructor(private readonly o: FeedOwnerOptions) {}

  isOwner(): boolean {
    return this.owner;
  }

  setFocused(focused: boolean): void {
    if (focused) void this.claim();
  }

  /** Syncing began: check the lease now, then every renewal period. */
  start(): void {
    this.checking = true;
    this.schedule(0);
  }

  /** Syncing stopped: no more checks (the lease runs out by itself unless released). */
  stop(): void {
    this.checking = false;
    this.timer?.cancel();
  }

  async dispose(): Promise<void> {
    this.stop();
    await this.o.lease.release().catch(() => undefined);
    this.ownerE.clear();
  }

  private async claim(): Promise<void> {
    await this.o.lease.claim().catch((e: unknown) => this.o.logger.warn('feed lease claim failed', { error: String(e) }));
    this.set(true);
  }

  private set(owner: boolean): void {
    if (owner === this.owner) return;
    this.owner = owner;
    this.ownerE.fire(owner);
    this.o.onChange(owner);
  }

  private schedule(ms = FEED_LEASE_RENEW_MS): void {
    this.timer?.cancel();
    this.timer = this.o.timers.setTimeout(() => void this.check(), ms);
  }

  private async check(): Promise<void> {
    if (!this.checking) return;
    try {
      if (this.owner) this.set(await this.o.lease.renew());
      else this.set(await this.o.lease.claimIfFree());
    } catch (e) {
      this.o.logger.warn('feed lease check failed', { error: String(e) });
    }
    if (this.checking) this.schedule();
  }
}
