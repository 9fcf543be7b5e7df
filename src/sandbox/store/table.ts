// One kind of record in the sandbox's store, read and written by id. A plain Map is the in-memory
// table; the SQLite store's tables are Maps that remember what a transaction touched (sqlite-store.ts).
export interface Table<T> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  set(id: string, rec: T): this;
  delete(id: string): boolean;
  clear(): void;
  values(): IterableIterator<T>;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, T]>;
  [Symbol.iterator](): IterableIterator<[string, T]>;
  readonly size: number;
  /**
   * The records still in play: for cards, those not done. A store may keep done cards on disk until
   * something asks for them by id or iterates the whole table; this never reads them.
   */
  live(): IterableIterator<T>;
}

/** A done record (a card closed) is not live: `Table.live` leaves it out. */
const isLive = (rec: unknown): boolean => (rec as { status?: unknown }).status !== 'done';

/** The in-memory table: a Map. The SQLite store's tables extend it. */
export class MemoryTable<T> extends Map<string, T> implements Table<T> {
  /** Map's own values: a subclass's `values()` (a read of every done card from disk, a touch) is not this. */
  *live(): IterableIterator<T> {
    for (const rec of super.values()) if (isLive(rec)) yield rec;
  }
}

/** The kinds of record the store keeps, each a table of its own (and its name in the file). */
export const KINDS = [
  'assistant', 'agent', 'session', 'card', 'webhook',
  'app', 'machine', 'grant', 'access', 'refresh', 'idempotency', 'sessionKey',
] as const;
export type Kind = (typeof KINDS)[number];
