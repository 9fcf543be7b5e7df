// #51: the store behind the sandbox's state. The same tests run on both implementations (the
// in-memory one the sandbox and the tests use by default, and the SQLite file); then what only a
// file does: it outlives the process, refuses what it cannot open and leaves it untouched, keeps
// tokens hashed, 0600 in 0700, the 30 days, and the previous schema version opens and upgrades.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { MemoryStore, type SandboxStore } from '../../../src/sandbox/store/store';
import { KEEP_DONE_MS, SqliteStore } from '../../../src/sandbox/store/sqlite-store';
import { SCHEMA_VERSION } from '../../../src/sandbox/store/schema';
import { StoreError } from '../../../src/sandbox/store/store-error';
import { tokenHash } from '../../../src/sandbox/store/token-table';
import { ManualServiceClock } from '../../../src/sandbox/clock';
import { buildSandbox } from '../../../src/sandbox/server';
import { fill } from './fill';

const START = Date.UTC(2026, 11, 1, 12, 0, 0);
let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-store-')); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

const kinds: { name: string; open: () => SandboxStore; reopen?: (s: SandboxStore) => SandboxStore }[] = [
  { name: 'in memory', open: () => new MemoryStore() },
  {
    name: 'SQLite file',
    open: () => SqliteStore.open(path.join(dir, 'data', 'store.db'), { now: () => START }),
    reopen: (s) => { s.close(); return SqliteStore.open(path.join(dir, 'data', 'store.db'), { now: () => START }); },
  },
];

for (const kind of kinds) {
  describe(`the sandbox's store: ${kind.name}`, () => {
    it('tables by id: set, get, delete, iterate; the counters and the change log the feed reads', () => {
      let store = kind.open();
      const t = store.table<{ id: string; n: number }>('assistant');
      t.set('a', { id: 'a', n: 1 }).set('b', { id: 'b', n: 2 });
      t.delete('b');
      store.changes.push({ seq: 1, type: 'card.created', cardId: 'req_x', at: START });
      store.counters.seq = 1;
      store.counters.rank = 7;
      store.commit();
      if (kind.reopen) store = kind.reopen(store);
      const t2 = store.table<{ id: string; n: number }>('assistant');
      assert.deepEqual([...t2.values()], [{ id: 'a', n: 1 }]);
      assert.equal(t2.has('b'), false);
      assert.deepEqual(store.changes.map((c) => c.seq), [1]);
      assert.equal(store.counters.seq, 1);
      assert.equal(store.counters.rank, 7);
      store.close();
    });

    it('a sandbox on it: cards, their history and versions, Later, sign-ins and the feed come back', () => {
      let store = kind.open();
      const f = fill(store, START);
      const before = f.sb.state.cards.get(f.done)!;
      assert.equal(before.status, 'done');
      assert.deepEqual(before.history.map((h) => h.type), ['asked', 'answered', 'picked-up']);
      const seq = f.sb.state.seq;
      f.sb.stop();
      if (kind.reopen) store = kind.reopen(store);
      const sb = buildSandbox({ store, clock: new ManualServiceClock(START + 60_000) });
      const done = sb.state.cards.get(f.done)!;
      assert.equal(done.status, 'done');
      assert.equal(done.version, before.version);
      assert.deepEqual(done.history.map((h) => h.type), ['asked', 'answered', 'picked-up']);
      assert.equal(done.history[1]!.origin?.appName, 'Assistant Cards for VS Code', 'who answered, from which app');
      assert.equal(sb.state.cards.get(f.later)!.until, f.laterUntil);
      assert.equal(sb.state.seq, seq, 'the feed goes on from the same cursor');
      assert.ok(sb.auth.core.store.refresh.get(f.refreshToken), 'the refresh token still works');
      assert.ok(sb.auth.core.store.access.get(f.accessToken), 'the access token still works');
      // The Later is timed work again, keyed by the card: it returns at its time.
      sb.clock.advance!(f.laterUntil - sb.clock.now() + 1);
      assert.equal(sb.state.cards.get(f.later)!.status, 'pending');
      assert.equal(sb.state.cards.get(f.later)!.history.at(-1)!.type, 'back');
      sb.stop();
      store.close();
    });
  });
}

describe('the SQLite store file', () => {
  const file = () => path.join(dir, 'data', 'store.db');
  /** A store file a sandbox filled (fill.ts) and closed; what it made, by name. */
  const filledFile = () => {
    const store = SqliteStore.open(file(), { now: () => START });
    const f = fill(store, START);
    f.sb.stop();
    store.close();
    return f;
  };

  it('is made 0600 in a 0700 folder, and holds tokens only as hashes', () => {
    const f = filledFile();
    assert.equal(fs.statSync(path.dirname(file())).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file()).mode & 0o777, 0o600);
    const bytes = fs.readFileSync(file()).toString('latin1');
    assert.ok(!bytes.includes(f.refreshToken), 'no refresh token in the file');
    assert.ok(!bytes.includes(f.accessToken), 'no access token in the file');
    assert.ok(bytes.includes(tokenHash(f.refreshToken)), 'the refresh token\'s hash is');
  });

  it('a store from a newer version is refused with what to do, and left untouched', () => {
    SqliteStore.open(file(), { now: () => START }).close();
    const db = new Database(file());
    db.run('UPDATE schema_version SET version = ?', [SCHEMA_VERSION + 1]);
    db.close();
    const bytes = fs.readFileSync(file());
    const mtime = fs.statSync(file()).mtimeMs;
    assert.throws(() => SqliteStore.open(file()), (e: unknown) => e instanceof StoreError && e.problem === 'newer' && /newer version of Assistant Cards/.test(e.message) && /update the extension/.test(e.message));
    assert.deepEqual(fs.readFileSync(file()), bytes);
    assert.equal(fs.statSync(file()).mtimeMs, mtime);
    assert.equal(fs.existsSync(`${file()}.pid`), false, 'nothing left beside it');
  });

  it('a corrupt file is refused with what to do, and not overwritten', () => {
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    const junk = Buffer.from('this is not a database, but the person\'s notes\n'.repeat(200));
    fs.writeFileSync(file(), junk);
    assert.throws(() => SqliteStore.open(file()), (e: unknown) => e instanceof StoreError && e.problem === 'corrupt' && /move it aside/.test(e.message));
    assert.deepEqual(fs.readFileSync(file()), junk);
  });

  it('a read-only store is refused with what to do, and not changed', function () {
    // root writes through file modes, so no file is read-only to it: this runs as another user only.
    if (process.getuid?.() === 0) this.skip();
    SqliteStore.open(file(), { now: () => START }).close();
    const bytes = fs.readFileSync(file());
    fs.chmodSync(file(), 0o400);
    assert.throws(() => SqliteStore.open(file()), (e: unknown) => e instanceof StoreError && e.problem === 'read-only' && /writable/.test(e.message));
    assert.deepEqual(fs.readFileSync(file()), bytes);
  });

  it('one process at a time: a live owner refuses a second opener; a dead one\'s file is taken over', () => {
    const first = SqliteStore.open(file(), { now: () => START });
    assert.throws(() => SqliteStore.open(file()), (e: unknown) => e instanceof StoreError && e.problem === 'in-use');
    first.close();
    // A killed owner leaves its pid file and SQLite's lock folder behind.
    fs.writeFileSync(`${file()}.pid`, '999999999\n');
    fs.mkdirSync(`${file()}.lock`);
    SqliteStore.open(file(), { now: () => START }).close();
    assert.equal(fs.existsSync(`${file()}.lock`), false);
  });

  it('keeps 30 days of done cards: older ones go at start, waiting cards stay', () => {
    const f = filledFile();
    const soon = SqliteStore.open(file(), { now: () => START + KEEP_DONE_MS - 60_000 });
    assert.ok(soon.table('card').has(f.done), 'within 30 days: kept');
    soon.close();
    const late = SqliteStore.open(file(), { now: () => START + KEEP_DONE_MS + 60_000 });
    assert.equal(late.table('card').has(f.done), false, 'past 30 days: pruned');
    assert.ok(late.table('card').has(f.waiting) && late.table('card').has(f.later), 'open cards stay');
    late.close();
  });

  it('a service that runs for weeks drops what is past the 30 days, at most once an hour', () => {
    let now = START;
    const store = SqliteStore.open(file(), { now: () => now });
    const f = fill(store, START);
    const seqBefore = store.counters.seq;
    now = START + KEEP_DONE_MS + 2 * 3_600_000;
    store.commit();
    assert.equal(store.table('card').has(f.done), false, 'the old done card is gone');
    assert.ok(store.table('card').has(f.waiting), 'a waiting card stays, however old');
    assert.equal(store.changes.length, 0, 'the old changes are gone');
    assert.equal(store.counters.firstSeq, seqBefore + 1, 'the feed\'s first sequence number follows');
    f.sb.stop();
    store.close();
    const again = SqliteStore.open(file(), { now: () => now });
    assert.equal(again.table('card').has(f.done), false, 'and gone from the file');
    again.close();
  });

  for (const v of [1, 2]) {
    it(`opens a store made by schema version ${v} (a committed fixture) and upgrades it`, () => {
      const fixture = path.join(__dirname, '..', '..', 'fixtures', 'store');
      const held = JSON.parse(fs.readFileSync(path.join(fixture, `v${v}.json`), 'utf8')) as { start: number; done: string; later: string; laterUntil: number; waiting: string; refreshToken: string };
      fs.mkdirSync(path.dirname(file()), { recursive: true, mode: 0o700 });
      fs.copyFileSync(path.join(fixture, `v${v}.db`), file());
      const store = SqliteStore.open(file(), { now: () => held.start + 60_000 });
      assert.equal(store.version, SCHEMA_VERSION);
      const cards = store.table<{ status: string; until?: number; history: { type: string }[] }>('card');
      assert.equal(cards.get(held.done)?.status, 'done');
      assert.deepEqual(cards.get(held.done)?.history.map((h) => h.type), ['asked', 'answered', 'picked-up']);
      assert.equal(cards.get(held.later)?.until, held.laterUntil);
      assert.equal(cards.get(held.waiting)?.status, 'pending');
      assert.ok(store.table('refresh').has(tokenHash(held.refreshToken)));
      store.close();
      // The done card's close time was carried into its column: it is pruned by it after 30 days.
      const later = SqliteStore.open(file(), { now: () => held.start + KEEP_DONE_MS + 3_600_000 });
      assert.equal(later.table('card').has(held.done), false);
      assert.ok(later.table('card').has(held.waiting));
      later.close();
    });
  }

  it('done cards stay on disk until asked for: by id, by the whole table; the live ones never read them', () => {
    const f = filledFile();
    // The file as the store saw it: the done card has its close time in its own column.
    const db = new Database(file());
    assert.deepEqual(db.all('SELECT id FROM card WHERE done_at IS NOT NULL').map((r) => r.id), [f.done]);
    db.close();
    const again = SqliteStore.open(file(), { now: () => START });
    const cards = again.table<{ id: string; status: string }>('card');
    assert.deepEqual([...cards.live()].map((c) => c.id).sort(), [f.later, f.waiting].sort(), 'live: the open cards');
    assert.equal(cards.get(f.done)?.status, 'done', 'a done card by id');
    assert.equal(cards.get('req_none'), undefined);
    assert.deepEqual([...cards.keys()].sort(), [f.done, f.later, f.waiting].sort(), 'the whole table');
    assert.equal(cards.size, 3);
    again.close();
    // A done card never read is deleted from the file all the same; and the upkeep prunes one never read.
    const third = SqliteStore.open(file(), { now: () => START });
    third.table('card').delete(f.done);
    third.commit();
    third.close();
    const fourth = SqliteStore.open(file(), { now: () => START });
    assert.equal(fourth.table('card').has(f.done), false);
    fourth.close();
  });

  it('the upkeep prunes done cards that were never read from the file', () => {
    const f = filledFile();
    let now = START;
    const again = SqliteStore.open(file(), { now: () => now });
    now = START + KEEP_DONE_MS + 2 * 3_600_000;
    again.commit();
    again.close();
    const db = new Database(file());
    assert.deepEqual(db.all('SELECT id FROM card').map((r) => r.id).sort(), [f.later, f.waiting].sort());
    db.close();
  });
});
