// #51: the local service started as a window starts it (ensureLocalService, the real process) on a
// store it cannot open: in use by another version's running service, from a newer version,
// corrupt, read-only, on a full disk. Each start fails with words that say what to do, the
// window's Cards view reads them (start-failed.json, or the starter's own words when the service
// could not write them), no service runs, and the store's bytes are as they were.
// Read-only and full disk are real: a read-only bind mount and a tiny tmpfs, in a user namespace
// (`unshare -rm`, no root needed); where the system offers none, those two skip and say so.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { ensureLocalService, lastStartFailure, ServiceStartError } from '../../src/editor/connection/service-starter';
import { readServiceState } from '../../src/bridge/service-state';
import { SqliteStore } from '../../src/sandbox/store/sqlite-store';
import { SCHEMA_VERSION } from '../../src/sandbox/store/schema';
import { serviceScript, tempHome } from '../sandbox/service-process';

/** Whether this system makes user namespaces with their own mounts for an ordinary user. */
const namespaces = (() => {
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"'], { encoding: 'utf8' });
  return r.status === 0;
})();

describe('editor: the local service refuses a store it cannot open, with what to do', function () {
  this.timeout(60_000);
  let bridge: string;
  let home: string;
  let store: string;
  const helpers: number[] = [];
  beforeEach(() => {
    bridge = tempHome();
    home = path.join(bridge, 'service');
    store = path.join(home, 'cards.db');
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  });
  afterEach(() => {
    for (const pid of helpers.splice(0)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    const running = readServiceState(home);
    if (running) process.kill(running.pid, 'SIGKILL');
    fs.rmSync(bridge, { recursive: true, force: true });
  });

  const startWith = async (execPath = process.execPath) => ({ script: await serviceScript(), execPath, home, env: { ...process.env, ASSISTANT_CARDS_HOME: bridge } });

  /** Starts it as a window does; the refusal's words, checked to be the ones the Cards view shows. */
  async function refused(execPath?: string): Promise<string> {
    const err = await ensureLocalService(await startWith(execPath)).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ServiceStartError, `it did not start: ${String(err)}`);
    assert.equal(readServiceState(home), undefined, 'no service runs');
    const shown = lastStartFailure(home);
    if (shown !== undefined) assert.equal(shown, err.message, 'the Cards view reads the same words');
    return err.message;
  }

  function madeStore(): Buffer {
    SqliteStore.open(store).close();
    return fs.readFileSync(store);
  }

  it('in use by another version\'s running service: says so and to stop it; the store untouched', async () => {
    const bytes = madeStore();
    // Another version's service (a live process) holds the store; this version's lock of the home is free.
    const other = spawnSync('sh', ['-c', 'sleep 60 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' });
    const pid = Number(other.stdout.trim());
    helpers.push(pid);
    fs.writeFileSync(`${store}.pid`, `${pid}\n`);
    const message = await refused();
    assert.match(message, new RegExp(`store ${store.replace(/[.]/g, '\\.')} is in use by another running service \\(process ${pid}\\)\\. Use that one, or stop it first\\.`));
    assert.deepEqual(fs.readFileSync(store), bytes);
    assert.equal(fs.readFileSync(`${store}.pid`, 'utf8'), `${pid}\n`, 'the other\'s claim left as it was');
  });

  it('from a newer version: says to update the extension; the store untouched', async () => {
    madeStore();
    const db = new Database(store);
    db.run('UPDATE schema_version SET version = ?', [SCHEMA_VERSION + 1]);
    db.close();
    const bytes = fs.readFileSync(store);
    const message = await refused();
    assert.match(message, /was written by a newer version of Assistant Cards \(schema \d+; this version knows up to \d+\)\. It is left as it is: update the extension/);
    assert.deepEqual(fs.readFileSync(store), bytes);
  });

  it('corrupt: says to move it aside or restore a copy; not overwritten', async () => {
    const junk = Buffer.from('the person\'s notes, not a store\n'.repeat(300));
    fs.writeFileSync(store, junk, { mode: 0o600 });
    const message = await refused();
    assert.match(message, /cannot be read: it is not a store of Assistant Cards, or it is damaged .*move it aside .* or restore a copy/);
    assert.deepEqual(fs.readFileSync(store), junk);
  });

  /** A runtime that first makes `setUp` true in a user namespace of its own, then runs node. */
  function inNamespace(setUp: string): string {
    const wrapper = path.join(bridge, 'runtime.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec unshare -rm sh -c '${setUp} && exec "$0" "$@"' ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o700 });
    return wrapper;
  }

  it('read-only (a read-only mount): says to make it writable; not changed', async function () {
    if (!namespaces) this.skip(); // no user namespaces here: a read-only mount needs one without root
    const bytes = madeStore();
    const message = await refused(inNamespace(`mount --bind "${store}" "${store}" && mount -o remount,bind,ro "${store}"`));
    assert.match(message, /The store .*cards\.db cannot be written \(EROFS\)\. Make it and its folder writable by you, or free space on the disk, then start again\./);
    assert.deepEqual(fs.readFileSync(store), bytes);
  });

  /** The start run by start-service-once.ts in a namespace whose home is a 64 KB tmpfs with `fillKb` taken. */
  async function startOnTinyDisk(fillKb: number): Promise<{ refused?: string; shown?: string; started?: boolean }> {
    // Both sides in one namespace: the window reads what the service wrote on that disk.
    const r = spawnSync('unshare', ['-rm', 'sh', '-c',
      `mount -t tmpfs -o size=64k,mode=700 tmpfs "${home}" && dd if=/dev/zero of="${home}/fill" bs=1k count=${fillKb} 2>/dev/null; exec "$0" "$@"`,
      process.execPath, '--import', 'tsx', path.join(__dirname, 'start-service-once.ts'), JSON.stringify(await startWith())], { encoding: 'utf8', timeout: 50_000 });
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1) || '{}') as { refused?: string; shown?: string; started?: boolean };
    assert.equal(out.started, undefined, `it did not start: ${r.stdout} ${r.stderr}`);
    return out;
  }

  it('a full disk (a tiny tmpfs), nearly full: the store cannot be written, free space', async function () {
    if (!namespaces) this.skip(); // as above: a tmpfs of its own needs a user namespace without root
    // 16 KB free: the service keeps its ask key (one 4 KB page) and writes why; the store's schema does not fit.
    const out = await startOnTinyDisk(48);
    // Whichever write at start meets the full disk (the journal's mode, the schema), never "damaged".
    assert.match(out.refused ?? '', /The store .*cards\.db cannot be written \(.*disk I\/O error\)\. Make it and its folder writable by you, or free space on the disk, then start again\./);
    assert.doesNotMatch(out.refused ?? '', /move it aside/);
    assert.equal(out.shown, out.refused, 'the Cards view reads the same words');
  });

  it('a full disk, no byte free: the window says the disk is full (the service could not write why)', async function () {
    if (!namespaces) this.skip();
    const out = await startOnTinyDisk(64);
    assert.match(out.refused ?? '', /the disk of .*service is full \(\d+ KB free\)\. Free space on it, then start the local service again\./);
  });
});
