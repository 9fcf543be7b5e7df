// The store file's schema, one migration a version. A store opens in every later version (its
// migrations run in one transaction); a store from a newer version is refused and left untouched.
export interface Migration {
  version: number;
  /** Why the version exists: what it adds. */
  why: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    why: 'records by kind and id (JSON bodies), the change log, the counters',
    sql: `
      CREATE TABLE rec (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
      CREATE TABLE change (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, card_id TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    why: 'a done card\'s close time as a column, so the 30 days are pruned at start without reading every card',
    sql: `
      ALTER TABLE rec ADD COLUMN done_at INTEGER;
      UPDATE rec SET done_at = json_extract(body, '$.closedAt')
        WHERE kind = 'card' AND json_extract(body, '$.status') = 'done';
      CREATE INDEX rec_done ON rec (kind, done_at) WHERE done_at IS NOT NULL;
    `,
  },
  {
    version: 3,
    why: 'cards in a table of their own, read by id, the open ones by an index of their own, so done cards stay on disk until asked for; '
      + 'rowid tables, whose rows of 1 to 4 KB (a card) sit in their page instead of each spilling onto an overflow page of its own (the v2 file was three times its data)',
    sql: `
      CREATE TABLE card (id TEXT NOT NULL PRIMARY KEY, done_at INTEGER, body TEXT NOT NULL);
      INSERT INTO card (id, done_at, body) SELECT id, done_at, body FROM rec WHERE kind = 'card';
      CREATE INDEX card_done ON card (done_at) WHERE done_at IS NOT NULL;
      CREATE INDEX card_open ON card (id) WHERE done_at IS NULL;
      CREATE TABLE rec_v3 (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id));
      INSERT INTO rec_v3 (kind, id, body) SELECT kind, id, body FROM rec WHERE kind <> 'card';
      DROP TABLE rec;
      ALTER TABLE rec_v3 RENAME TO rec;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Made before any migration: which version the file holds (no row: a new, empty file). */
export const VERSION_TABLE = 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)';
