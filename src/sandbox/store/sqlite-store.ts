// The store in a SQLite file, through node-sqlite3-wasm (WebAssembly: no native build, runs on
// every Node VS Code ships; docs/decisions.md "#51: the store"). Records are kept in memory too,
// so reads stay synchronous Map reads, except done cards: they stay on disk until one is asked for
// by id or the whole card table is iterated, so a start does not grow with the 30 days of done
// cards (decisions "#51: the store's speed"). `commit` writes, in one transaction, the records a
// transaction changed and the change rows appended, before the reply that acknowledges them leaves.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import type { Database as WasmDatabase } from 'node-sqlite3-wasm';
import type { ChangeRec, ChangeType } from './change';
import type { Counters, SandboxStore } from './store';
import { MIGRATIONS, SCHEMA_VERSION, VERSION_TABLE } from './schema';
import { storeError, StoreError } from './store-error';
import { KINDS, MemoryTable, type Kind, type Table } from './table';

const UPSERT_CARD = 'INSERT INTO card (id, done_at, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET done_at = excluded.done_at, body = excluded.body';
const UPSERT_REC = 'INSERT INTO rec (kind, id, body) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body';

/**
 * One process owns the file (takeOwnership), so SQLite's lock is taken once, not per transaction.
 * Set before the first read: a file a killed process left in WAL mode is then read without the
 * shared-memory index, which node-sqlite3-wasm's file system does not have.
 */
const EXCLUSIVE = 'PRAGMA locking_mode = EXCLUSIVE';
/**
 * A commit appends its pages to the write-ahead log and syncs it once (`synchronous = FULL`): an
 * acknowledged write is on disk. The rollback journal took four syncs a commit (its journal, the
 * file, the folder twice); decisions "#51: the store's speed".
 */
const WAL = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL';

/** DESIGN's 30 days of done cards: older ones (and older changes) are dropped at start. */
export const KEEP_DONE_MS = 30 * 24 * 3_600_000;

/** Tables whose records the sandbox finds by iterating and then changes in place: iteration counts as a touch. */
const SMALL: ReadonlySet<Kind> = new Set(['assistant', 'agent', 'session', 'webhook', 'app', 'machine', 'grant']);

/**
 * A Map that remembers what a transaction touched: `set` and `delete` always, `get` too (a record
 * read by id is often changed in place), iteration for the small tables. Touched records are
 * written at commit when their JSON differs from what the file holds.
 */
class TrackedTable<T> extends MemoryTable<T> implements Table<T> {
  readonly touched = new Set<string>();
  readonly deleted = new Set<string>();
  cleared = false;
  /** Each record's JSON as the file holds it. */
  readonly written = new Map<string, string>();

  constructor(readonly kind: Kind, private readonly iterationTouches: boolean) {
    super();
  }

  load(id: string, rec: T, json: string): void {
    super.set(id, rec);
    this.written.set(id, json);
  }

  peek(id: string): T | undefined {
    return super.get(id);
  }

  override get(id: string): T | undefined {
    const rec = super.get(id);
    if (rec !== undefined) this.touched.add(id);
    return rec;
  }

  override set(id: string, rec: T): this {
    // Map's constructor calls set before the fields exist; nothing to track then.
    if (this.touched) {
      this.touched.add(id);
      this.deleted.delete(id);
    }
    return super.set(id, rec);
  }

  override delete(id: string): boolean {
    this.touched.delete(id);
    if (super.has(id) || this.written.has(id)) this.deleted.add(id);
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.touched.clear();
    this.deleted.clear();
    this.cleared = true;
  }

  override values(): MapIterator<T> {
    if (this.iterationTouches) for (const id of super.keys()) this.touched.add(id);
    return super.values();
  }

  override entries(): MapIterator<[string, T]> {
    if (this.iterationTouches) for (const id of super.keys()) this.touched.add(id);
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }

  get busy(): boolean {
    return this.cleared || this.touched.size > 0 || this.deleted.size > 0;
  }
}

/** Where the card table finds what it left on disk. */
interface CardsOnDisk {
  one(id: string): string | undefined;
  /** Every done card: id and JSON. */
  done(): [string, string][];
}

/**
 * The card table: open cards are in memory from the start; a done card is read from the file when
 * it is asked for by id, and all of them when the table is iterated whole (the Answers view's list,
 * at most once a run). `live()` never reads the file: the open cards are all in memory.
 */
class CardTable<T> extends TrackedTable<T> {
  /** Every done card is in memory (read, or none was left on disk). */
  private complete = false;

  constructor(private readonly disk: CardsOnDisk) {
    super('card', false);
  }

  /** Reads a card that is only on disk into memory; false when there is none by that id. */
  private fault(id: string): boolean {
    if (super.peek(id) !== undefined) return true;
    if (this.complete || this.deleted.has(id)) return false;
    const json = this.disk.one(id);
    if (json === undefined) return false;
    this.load(id, JSON.parse(json) as T, json);
    return true;
  }

  private readAll(): void {
    if (this.complete) return;
    for (const [id, json] of this.disk.done()) {
      if (super.peek(id) === undefined && !this.deleted.has(id)) this.load(id, JSON.parse(json) as T, json);
    }
    this.complete = true;
  }

  override peek(id: string): T | undefined {
    return this.fault(id) ? super.peek(id) : undefined;
  }

  /** In memory only (upkeep: what is on disk is pruned there). */
  inMemory(): IterableIterator<[string, T]> {
    return Map.prototype.entries.call(this) as IterableIterator<[string, T]>;
  }

  override get(id: string): T | undefined {
    this.fault(id);
    return super.get(id);
  }

  override has(id: string): boolean {
    return this.fault(id);
  }

  override delete(id: string): boolean {
    this.fault(id);
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.complete = true;
  }

  override get size(): number {
    this.readAll();
    return super.size;
  }

  override keys(): MapIterator<string> {
    this.readAll();
    return super.keys();
  }

  override values(): MapIterator<T> {
    this.readAll();
    return super.values();
  }

  override entries(): MapIterator<[string, T]> {
    this.readAll();
    return super.entries();
  }
}

export interface SqliteStoreOptions {
  /** Now, for the 30 days kept (the sandbox's clock). */
  now?: () => number;
}

interface Db {
  exec(sql: string): void;
  run(sql: string, values?: (string | number | null)[]): void;
  all(sql: string, values?: (string | number | null)[]): Record<string, unknown>[];
  close(): void;
}

/**
 * V8 compiles SQLite's WebAssembly with its baseline compiler (Liftoff) only. By default it also
 * recompiles the busy functions (SQLite's VDBE loop is one huge one) with its optimizing compiler
 * on a background thread as the first queries run: measured on the bench's start, that was ~250 ms
 * of CPU competing with the start on two cores, and no commit or read got faster for it (the
 * queries are small; a commit waits on its sync, a read of every done card on JSON.parse).
 * decisions.md "#51: the store's start (storestart)". Process-wide, so set only where a store is
 * opened, before the module is compiled; a V8 without the flag prints one line on stderr and goes on.
 */
function baselineWasmOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

function openDb(file: string): Db {
  baselineWasmOnly();
  // Loaded on first use: the in-memory sandbox never pays for the WebAssembly module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Database } = require('node-sqlite3-wasm') as { Database: typeof WasmDatabase };
  const db = new Database(file);
  return {
    exec: (sql) => db.exec(sql),
    run: (sql, values) => void db.run(sql, values),
    all: (sql, values) => db.all(sql, values) as Record<string, unknown>[],
    close: () => db.close(),
  };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** SQLite's words for a write the disk refused (full, read-only, an I/O error), not for a damaged file. */
const CANNOT_WRITE = /disk I\/O error|database or disk is full|attempt to write a readonly database|ENOSPC|EROFS/i;

/**
 * One process at a time: `<file>.pid` names the owner. A dead owner's file (a `kill -9`) is taken
 * over, with the lock folder node-sqlite3-wasm left beside the store; SQLite then rolls back the
 * transaction the kill cut short from its journal.
 */
function takeOwnership(file: string): string {
  const pidFile = `${file}.pid`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(pidFile, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return pidFile;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') throw storeError('read-only', file, `cannot write ${pidFile}: ${code}`);
      if (code !== 'EEXIST') throw storeError('read-only', file, String(err));
      const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw storeError('in-use', file, `process ${pid}`);
      fs.rmSync(pidFile, { force: true });
      fs.rmSync(`${file}.lock`, { recursive: true, force: true });
    }
  }
  throw storeError('in-use', file, 'another process took it at the same moment');
}

export class SqliteStore implements SandboxStore {
  private readonly tables = new Map<Kind, TrackedTable<unknown>>();
  readonly changes: ChangeRec[] = [];
  readonly counters: Counters = { seq: 0, firstSeq: 1, rank: 0 };
  private writtenCounters: Counters = { seq: 0, firstSeq: 1, rank: 0 };
  /** The last change on disk. */
  private writtenSeq = 0;
  private changesDropped = false;
  private closed = false;
  /** The schema version the file is at. */
  readonly version: number;
  private lastPrune: number;
  /** Done cards closed before this go from the file at the next commit (upkeep). */
  private pruneBefore: number | undefined;

  private constructor(readonly file: string, private readonly db: Db, private readonly pidFile: string, version: number, private readonly now: () => number) {
    this.version = version;
    this.lastPrune = now();
    const onDisk: CardsOnDisk = {
      one: (id) => this.db.all('SELECT body FROM card WHERE id = ?', [id])[0]?.body as string | undefined,
      done: () => this.db.all('SELECT id, body FROM card WHERE done_at IS NOT NULL').map((r) => [r.id as string, r.body as string]),
    };
    for (const k of KINDS) this.tables.set(k, k === 'card' ? new CardTable(onDisk) : new TrackedTable(k, SMALL.has(k)));
  }

  /** Opens (or makes) the store at `file`; a StoreError says why it cannot, and the file is left as it was. */
  static open(file: string, opts: SqliteStoreOptions = {}): SqliteStore {
    file = path.resolve(file);
    const dir = path.dirname(file);
    if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const exists = fs.existsSync(file);
    try {
      fs.accessSync(dir, fs.constants.W_OK);
      if (exists) fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    } catch (err) {
      throw storeError('read-only', file, (err as NodeJS.ErrnoException).code);
    }
    const pidFile = takeOwnership(file);
    let db: Db | undefined;
    try {
      if (!exists) fs.writeFileSync(file, '', { flag: 'wx', mode: 0o600 });
      db = openDb(file);
      db.exec(EXCLUSIVE);
      const version = readVersion(db, file);
      if (version > SCHEMA_VERSION) throw storeError('newer', file, `schema ${version}; this version knows up to ${SCHEMA_VERSION}`);
      fs.chmodSync(file, 0o600);
      db.exec(WAL);
      migrate(db, file, version, SCHEMA_VERSION);
      const store = new SqliteStore(file, db, pidFile, SCHEMA_VERSION, opts.now ?? Date.now);
      store.load(store.now());
      return store;
    } catch (err) {
      try { db?.close(); } catch { /* already failing */ }
      fs.rmSync(pidFile, { force: true });
      if (err instanceof StoreError) throw err;
      const why = err instanceof Error ? err.message : String(err);
      // A full disk or a read-only one is SQLite's I/O error here (the WebAssembly VFS says no
      // more): "move it aside" would be the wrong advice for a store that is whole.
      if (CANNOT_WRITE.test(why)) throw storeError('read-only', file, why);
      throw storeError('corrupt', file, why);
    }
  }

  table<T>(kind: Kind): Table<T> {
    return this.tables.get(kind) as unknown as Table<T>;
  }

  dropChanges(): void {
    this.changes.length = 0;
    this.changesDropped = true;
  }

  /** Drops done cards and changes older than the 30 days kept (at start, and by the sandbox's upkeep). */
  private load(now: number): void {
    const cutoff = now - KEEP_DONE_MS;
    this.db.exec('BEGIN IMMEDIATE');
    this.db.run('DELETE FROM card WHERE done_at < ?', [cutoff]);
    this.db.run('DELETE FROM change WHERE at < ?', [cutoff]);
    this.db.exec('COMMIT');
    for (const row of this.db.all('SELECT kind, id, body FROM rec')) {
      const table = this.tables.get(row.kind as Kind);
      if (!table || row.kind === 'card') continue; // a kind a later version added is kept in the file, untouched
      table.load(row.id as string, JSON.parse(row.body as string), row.body as string);
    }
    // Open cards only: done ones are read when asked for (CardTable).
    const cards = this.tables.get('card')!;
    for (const row of this.db.all('SELECT id, body FROM card WHERE done_at IS NULL')) {
      cards.load(row.id as string, JSON.parse(row.body as string), row.body as string);
    }
    for (const row of this.db.all('SELECT seq, type, card_id, at FROM change ORDER BY seq')) {
      this.changes.push({ seq: row.seq as number, type: row.type as ChangeType, cardId: row.card_id as string, at: row.at as number });
    }
    for (const row of this.db.all('SELECT name, value FROM counter')) {
      if (row.name === 'seq' || row.name === 'firstSeq' || row.name === 'rank') this.counters[row.name] = row.value as number;
    }
    // The log's first change may have been pruned: the feed's first sequence number follows it.
    const first = this.changes[0];
    this.counters.firstSeq = first ? first.seq : this.counters.seq + 1;
    this.writtenCounters = { ...this.counters };
    this.writtenSeq = this.counters.seq;
  }

  /**
   * Upkeep while the service runs for weeks: at most once an hour, done cards closed more than 30
   * days ago and older changes go (written by the commit that follows).
   */
  private pruneIfDue(): void {
    const now = this.now();
    if (now - this.lastPrune < 3_600_000) return;
    this.lastPrune = now;
    const cutoff = now - KEEP_DONE_MS;
    // Those in memory are deleted here; those only on disk by the commit that follows.
    const cards = this.tables.get('card') as CardTable<unknown>;
    const old: string[] = [];
    for (const [id, rec] of cards.inMemory()) {
      const at = doneAt('card', rec);
      if (at !== null && at < cutoff) old.push(id);
    }
    for (const id of old) cards.delete(id);
    this.pruneBefore = cutoff;
    let n = 0;
    while (n < this.changes.length && this.changes[n]!.at < cutoff) n++;
    if (n > 0) {
      this.changes.splice(0, n);
      // The feed finds a cursor's place by subtraction from the first kept change (feed.ts).
      this.counters.firstSeq = this.changes[0]?.seq ?? this.counters.seq + 1;
    }
  }

  commit(): void {
    if (this.closed) return;
    this.pruneIfDue();
    const tables = [...this.tables.values()].filter((t) => t.busy);
    const newChanges = this.changes.filter((c) => c.seq > this.writtenSeq);
    const counters = this.counters;
    const countersChanged = counters.seq !== this.writtenCounters.seq || counters.firstSeq !== this.writtenCounters.firstSeq || counters.rank !== this.writtenCounters.rank;
    const pruneBefore = this.pruneBefore;
    if (!tables.length && !newChanges.length && !this.changesDropped && !countersChanged && pruneBefore === undefined) return;
    const staged: [TrackedTable<unknown>, string, string | undefined][] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      if (this.changesDropped) this.db.run('DELETE FROM change');
      if (pruneBefore !== undefined) this.db.run('DELETE FROM card WHERE done_at < ?', [pruneBefore]);
      for (const t of tables) {
        const card = t.kind === 'card';
        if (t.cleared) {
          if (card) this.db.run('DELETE FROM card');
          else this.db.run('DELETE FROM rec WHERE kind = ?', [t.kind]);
          for (const id of t.written.keys()) staged.push([t, id, undefined]);
        }
        for (const id of t.deleted) {
          if (card) this.db.run('DELETE FROM card WHERE id = ?', [id]);
          else this.db.run('DELETE FROM rec WHERE kind = ? AND id = ?', [t.kind, id]);
          staged.push([t, id, undefined]);
        }
        for (const id of t.touched) {
          const rec = t.peek(id);
          if (rec === undefined) continue;
          const json = JSON.stringify(rec);
          if (!t.cleared && t.written.get(id) === json) continue;
          if (card) this.db.run(UPSERT_CARD, [id, doneAt('card', rec), json]);
          else this.db.run(UPSERT_REC, [t.kind, id, json]);
          staged.push([t, id, json]);
        }
      }
      for (const c of newChanges) this.db.run('INSERT INTO change (seq, type, card_id, at) VALUES (?, ?, ?, ?)', [c.seq, c.type, c.cardId, c.at]);
      if (counters.firstSeq !== this.writtenCounters.firstSeq) this.db.run('DELETE FROM change WHERE seq < ?', [counters.firstSeq]);
      for (const name of ['seq', 'firstSeq', 'rank'] as const) {
        if (counters[name] === this.writtenCounters[name]) continue;
        this.db.run('INSERT INTO counter (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, counters[name]]);
      }
      this.db.exec('COMMIT');
    } catch (err) {
      try { this.db.exec('ROLLBACK'); } catch { /* no transaction left to end */ }
      // The records stay marked: the next commit tries them again.
      throw storeError('write-failed', this.file, err instanceof Error ? err.message : String(err));
    }
    for (const [t, id, json] of staged) {
      if (json === undefined) t.written.delete(id);
      else t.written.set(id, json);
    }
    for (const t of tables) {
      t.touched.clear();
      t.deleted.clear();
      t.cleared = false;
    }
    this.changesDropped = false;
    if (this.pruneBefore === pruneBefore) this.pruneBefore = undefined;
    this.writtenSeq = newChanges.length ? newChanges[newChanges.length - 1]!.seq : this.writtenSeq;
    this.writtenCounters = { ...counters };
  }

  close(): void {
    if (this.closed) return;
    try {
      this.commit();
    } finally {
      this.closed = true;
      // The log is folded into the file and the file left in rollback mode: one file, which any
      // SQLite opens (a file left in WAL mode by a kill is opened by the next start all the same).
      try { this.db.exec('PRAGMA journal_mode = DELETE'); } catch { /* the log stays; the next open reads it */ }
      this.db.close();
      fs.rmSync(this.pidFile, { force: true });
    }
  }
}

function doneAt(kind: Kind, rec: unknown): number | null {
  if (kind !== 'card') return null;
  const c = rec as { status?: string; closedAt?: number };
  return c.status === 'done' && typeof c.closedAt === 'number' ? c.closedAt : null;
}

function readVersion(db: Db, file: string): number {
  // The first read: a file that is not SQLite fails here ("file is not a database").
  const tables = db.all('SELECT name FROM sqlite_master WHERE type = \'table\'').map((r) => r.name as string);
  if (!tables.includes('schema_version')) {
    if (tables.length > 0) throw storeError('corrupt', file, `tables ${tables.join(', ')} but no schema_version`);
    return 0;
  }
  const rows = db.all('SELECT version FROM schema_version');
  const v = rows[0]?.version;
  if (rows.length !== 1 || typeof v !== 'number' || !Number.isInteger(v)) throw storeError('corrupt', file, 'no readable schema version');
  return v;
}

function migrate(db: Db, file: string, from: number, to: number): void {
  if (from >= to) return;
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(VERSION_TABLE);
    for (const m of MIGRATIONS) if (m.version > from && m.version <= to) db.exec(m.sql);
    db.run('DELETE FROM schema_version');
    db.run('INSERT INTO schema_version (version) VALUES (?)', [to]);
    db.exec('COMMIT');
  } catch (err) {
    try { db.exec('ROLLBACK'); } catch { /* nothing to end */ }
    // At a start: the read-only words, which say to free space too (a full disk fails here as an I/O error).
    throw storeError('read-only', file, `migrating schema ${from} to ${to}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // A migration that moved rows leaves the old pages free: the file is written again without them.
  if (from > 0) db.exec('VACUUM');
}
