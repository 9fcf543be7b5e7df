// The refresh lock across windows: a live holder keeps it past its lease (it renews), a dead
// holder's lease is taken over, and two waiters never hold it at once.
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileLock } from '../../src/auth/file-lock';
import { until } from '../kit/until';

describe('auth: the file lock with a lease', () => {
  let dir: string;
  beforeEach(async () => { dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-lock-')); });
  afterEach(async () => { await fs.rm(dir, { recursive: true, force: true }); });

  it('a live holder keeps the lock longer than its lease; the other waits for the release', async () => {
    // A lease a busy machine cannot outlast between two renewals (every third of it); the test
    // waits until half a lease past the first one's end, which only A's renewals keep it through.
    const opts = { leaseMs: 1_500, maxWaitMs: 20_000, pollMs: 10 };
    const file = path.join(dir, 'refresh.lock');
    const a = new FileLock(file, opts); // two processes: two instances
    const b = new FileLock(file, opts);
    const releaseA = await a.acquire();
    const leaseEnd = async () => (JSON.parse(await fs.readFile(file, 'utf8')) as { until: number }).until;
    const firstEnd = await leaseEnd();
    let bHolds = false;
    const gotB = b.acquire().then((r) => { bHolds = true; return r; });
    // A is slow (a refresh waiting on the network): it holds on past its first lease's end.
    // The lease is wall-clock time in a file other processes read: the state is real time past it.
    await until("half a lease past A's first lease end", () => Date.now() >= firstEnd + opts.leaseMs / 2, 10_000, 20);
    assert.ok((await leaseEnd()) > firstEnd, 'A renewed its lease');
    assert.equal(bHolds, false, 'B took the lock from a live holder');
    await releaseA();
    const releaseB = await gotB;
    assert.equal(bHolds, true);
    await releaseB();
  });

  it("a dead holder's expired lease is taken over", async () => {
    const file = path.join(dir, 'refresh.lock');
    await fs.writeFile(file, JSON.stringify({ id: 'crashed-window', pid: 1, until: Date.now() - 1 }));
    const release = await new FileLock(file, { leaseMs: 150, pollMs: 10 }).acquire();
    const held = JSON.parse(await fs.readFile(file, 'utf8')) as { id: string };
    assert.notEqual(held.id, 'crashed-window');
    await release();
    await assert.rejects(fs.access(file), 'released: the file is gone');
  });

  it('many waiters on a dead lease: one holder at a time', async () => {
    const file = path.join(dir, 'refresh.lock');
    await fs.writeFile(file, JSON.stringify({ id: 'crashed-window', pid: 1, until: Date.now() - 1 }));
    let inside = 0;
    let most = 0;
    await Promise.all(Array.from({ length: 6 }, async () => {
      // A lease long enough that a loaded machine never lets a live holder's run out.
      const release = await new FileLock(file, { leaseMs: 3_000, maxWaitMs: 20_000, pollMs: 5 }).acquire();
      inside++;
      most = Math.max(most, inside);
      // Inside: the lease on file is this holder's and live (I/O meanwhile: the others poll).
      const held = JSON.parse(await fs.readFile(file, 'utf8')) as { pid: number; until: number };
      assert.ok(held.pid === process.pid && held.until > Date.now(), 'a live lease while inside');
      inside--;
      await release();
    }));
    assert.equal(most, 1);
  });
});
