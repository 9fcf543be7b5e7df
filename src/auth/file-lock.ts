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
    const lease = () => JSON.stringify({ id, pid: process.pid, until: Date.now() + leaseMs });
    for (;;) {
      // The lease appears whole or not at all: written aside, then linked in (link fails if taken).
      const aside = `${this.file}.${id}`;
      try {
        await fs.writeFile(aside, lease());
        await fs.link(aside, this.file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          await releaseLocal();
          throw e;
        }
      } finally {
        await fs.rm(aside, { force: true });
      }
      const held = await this.readHolder();
      if (!held) continue; // released in between: try again at once
      if (held.until < Date.now() || Date.now() - started > maxWaitMs) {
        // Abandoned: exactly one waiter wins the right to remove this lease (its steal mark is
        // created exclusively), so a waiter that saw it stale late cannot remove a newer one.
        const won = await fs.writeFile(`${this.file}.stale-${held.id}`, id, { flag: 'wx' }).then(() => true, () => false);
        // Still that lease? (a slow holder may have let go, and another taken it, meanwhile)
        if (won && (await this.readHolder())?.id === held.id) await fs.rm(this.file, { force: true });
        continue;
      }
      await delay(pollMs + Math.floor(Math.random() * pollMs));
    }
    void this.sweepStaleMarks();
    // A live holder renews its lease, so only a holder that died is ever taken over (a refresh
    // must not be repeated by a second window: the service would see the old token reused).
    let renewing: Promise<unknown> = Promise.resolve();
    const renew = setInterval(() => {
      // Renewed by rename, so a reader never sees a half-written lease.
      const aside = `${this.file}.${id}.renew`;
      renewing = this.readHolder()
        .then(async (h) => { if (h?.id === id) { await fs.writeFile(aside, lease()); await fs.rename(aside, this.file); } })
        .catch(() => fs.rm(aside, { force: true }).catch(() => undefined));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    renew.unref?.();
    return async () => {
      clearInterval(renew);
      await renewing; // a renewal in flight must not put the lease back after it is removed
      try {
        const held = await this.readHolder();
        if (held?.id === id) await fs.rm(this.file, { force: true });
      } finally {
        await releaseLocal();
      }
    };
  }

  /** The holder's id and lease end; a file that does not parse counts as expired (by its inode); none: undefined. */
  private async readHolder(): Promise<{ id: string; until: number } | undefined> {
    // One handle for the content and the inode: the path may be replaced between two calls.
    const h = await fs.open(this.file, 'r').catch(() => undefined);
    if (!h) return undefined; // none (released)
    try {
      const text = await h.readFile('utf8');
      try {
        const v = JSON.parse(text) as { id?: unknown; until?: unknown };
        if (typeof v.id === 'string' && typeof v.until === 'number') return { id: v.id, until: v.until };
      } catch {
        // garbage (a crash mid-write before leases were linked in whole): below
      }
      const st = await h.stat();
      return { id: `unreadable-${st.ino}-${st.mtimeMs}`, until: 0 };
    } finally {
      await h.close();
    }
  }

  /** Steal marks older than an hour are of leases long gone. */
  private async sweepStaleMarks(): Promise<void> {
    const dir = path.dirname(this.file);
    const prefix = `${path.basename(this.file)}.stale-`;
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      if (!name.startsWith(prefix)) continue;
      const f = path.join(dir, name);
      const st = await fs.stat(f).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > 3_600_000) await fs.rm(f, { force: true }).catch(() => undefined);
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
