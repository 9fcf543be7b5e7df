// A lock file with a lease, for work only one process at a time may do (the token refresh).
// Real time on purpose: the lease is about processes that may die while holding it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

export interface LockOptions {
  /** The lock is considered abandoned after this long (a crashed window). */
  leaseMs?: number;
  /** Give up waiting after this long and take it anyway (a lease that never ends). */
  maxWaitMs?: number;
  pollMs?: number;
}

export type Release = () => Promise<void>;

/** In-process lock, used when no lock folder is given (one window, in-memory store). */
export class LocalLock {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<Release> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const got = this.tail.then(() => async () => release());
    this.tail = this.tail.then(() => next);
    return got;
  }
}

export class FileLock {
  private readonly local = new LocalLock();
  constructor(readonly file: string, private readonly o: LockOptions = {}) {}

  static in(dir: string, name: string, o?: LockOptions): FileLock {
    return new FileLock(path.join(dir, `${name}.lock`), o);
  }

  async acquire(): Promise<Release> {
    const releaseLocal = await this.local.acquire();
    const leaseMs = this.o.leaseMs ?? 30_000;
    const maxWaitMs = this.o.maxWaitMs ?? 45_000;
    const pollMs = this.o.pollMs ?? 25;
    const id = randomUUID();
    const started = Date.now();
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    for (;;) {
      try {
        const h = await fs.open(this.file, 'wx');
        await h.writeFile(JSON.stringify({ id, pid: process.pid, until: Date.now() + leaseMs }));
        await h.close();
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          await releaseLocal();
          throw e;
        }
      }
      const held = await this.readHolder();
      if (!held || held.until < Date.now() || Date.now() - started > maxWaitMs) {
        // Abandoned (or unreadable half-written) lock: remove it, then race for it again.
        if (!held && Date.now() - started < pollMs * 4) {
          await delay(pollMs);
          continue;
        }
        await fs.rm(this.file, { force: true });
        continue;
      }
      await delay(pollMs + Math.floor(Math.random() * pollMs));
    }
    return async () => {
      try {
        const held = await this.readHolder();
        if (held?.id === id) await fs.rm(this.file, { force: true });
      } finally {
        await releaseLocal();
      }
    };
  }

  private async readHolder(): Promise<{ id: string; until: number } | undefined> {
    try {
      const v = JSON.parse(await fs.readFile(this.file, 'utf8')) as { id?: unknown; until?: unknown };
      return typeof v.id === 'string' && typeof v.until === 'number' ? { id: v.id, until: v.until } : undefined;
    } catch {
      return undefined;
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
