// Which window holds the change-feed long-poll. A small JSON file in the shared global storage
// folder names the holder and until when; the focused window claims it, the holder renews it,
// and when the holder is gone (lease ran out) any window may take it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../api/runtime';

export const FEED_LEASE_MS = 45_000;
export const FEED_LEASE_RENEW_MS = 15_000;

interface LeaseFile {
  holder: string;
  until: number;
}

export class FeedLease {
  readonly file: string;
  constructor(dir: string, readonly instanceId: string, private readonly clock: Clock, private readonly leaseMs = FEED_LEASE_MS) {
    this.file = path.join(dir, 'feed-owner.json');
  }

  async read(): Promise<LeaseFile | undefined> {
    try {
      const v = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<LeaseFile>;
      return typeof v.holder === 'string' && typeof v.until === 'number' ? { holder: v.holder, until: v.until } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Take it (the focused window always may). */
  async claim(): Promise<void> {
    await this.write({ holder: this.instanceId, until: this.clock.now() + this.leaseMs });
  }

  /** Extend it while we hold it; false when another window took it. */
  async renew(): Promise<boolean> {
    const cur = await this.read();
    if (cur?.holder !== this.instanceId) return false;
    await this.claim();
    return true;
  }

  /** Take it only if nobody holds a live lease; true when we hold it afterwards. */
  async claimIfFree(): Promise<boolean> {
    const cur = await this.read();
    if (cur && cur.holder !== this.instanceId && cur.until > this.clock.now()) return false;
    await this.claim();
    return (await this.read())?.holder === this.instanceId;
  }

  async release(): Promise<void> {
    const cur = await this.read();
    if (cur?.holder === this.instanceId) await fs.rm(this.file, { force: true });
  }

  private async write(v: LeaseFile): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${randomUUID()}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(v));
    await fs.rename(tmp, this.file);
  }
}
