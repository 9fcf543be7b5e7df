// The one store behind the sandbox's state (#51): tables read by id, the change log, three counters,
// and a transaction in which the changed records and the new change rows are written together.
// Synchronous on purpose: lifecycle and the routes are, and an async driver would spread through
// every handler. Today's maps are its in-memory implementation (MemoryStore, the default); the
// SQLite one (sqlite-store.ts) keeps the same tables in memory and writes each transaction's changes
// to its file before the reply leaves.
import type { ChangeRec } from './change';
import { KINDS, MemoryTable, type Kind, type Table } from './table';

export interface Counters {
  /** The last change's sequence number. Kept across resets so an old cursor never points into a new log. */
  seq: number;
  /** Sequence number of the first change still kept in `changes`. */
  firstSeq: number;
  /** The last card's place in the stack. */
  rank: number;
}

export interface SandboxStore {
  table<T>(kind: Kind): Table<T>;
  /** The change log, oldest first, its seq numbers dense (see feed.ts). */
  readonly changes: ChangeRec[];
  readonly counters: Counters;
  /** Forgets the whole change log (the control surface's reset): nothing of it is written again. */
  dropChanges(): void;
  /** Writes what changed since the last commit, in one transaction; returns once it is on disk. */
  commit(): void;
  /** Where it lives (undefined: in memory). */
  readonly file?: string;
  close(): void;
}

/** The in-memory store: the sandbox's maps, nothing written anywhere; commit has nothing to do. */
export class MemoryStore implements SandboxStore {
  private readonly tables = new Map<Kind, MemoryTable<unknown>>(KINDS.map((k) => [k, new MemoryTable()]));
  readonly changes: ChangeRec[] = [];
  readonly counters: Counters = { seq: 0, firstSeq: 1, rank: 0 };

  table<T>(kind: Kind): Table<T> {
    return this.tables.get(kind) as MemoryTable<T>;
  }

  dropChanges(): void {
    this.changes.length = 0;
  }

  commit(): void {
    /* nothing to write */
  }

  close(): void {
    /* nothing to close */
  }
}
