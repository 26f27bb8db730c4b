import Database from 'better-sqlite3';
import type { Dialect, SqlDb, SqlExecutor, SqlValue } from '../sql/sql-db.js';
import { Mutex } from '../sql/mutex.js';
import { GroupCommit } from './group-commit.js';
import { registerSearchFunctions, sqliteSearch } from './sqlite-search.js';

/** SQLite's side of the dialect. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  forUpdate: '',
  autoId: 'INTEGER PRIMARY KEY',
  binaryCollate: 'COLLATE BINARY',
  clusteredTable: 'WITHOUT ROWID',
  blobType: 'BLOB',
  quoteJson: (expr) => `json_quote(${expr})`,
  search: sqliteSearch,
};

/** A prepared better-sqlite3 statement. */
type Prepared = Database.Statement<unknown[], unknown>;
/** How a statement returns rows: objects, arrays (raw) or first values (pluck). */
type StatementMode = 'rows' | 'arrays' | 'column';

/** One better-sqlite3 connection with a statement cache, exposed as an SqlExecutor. */
class Connection implements SqlExecutor {
  /**
   * Prepared statements by mode, then text: a statement's mode (rows as objects, as arrays
   * with raw, or first values with pluck) is its own, so each mode keeps its own.
   */
  private readonly caches: Record<StatementMode, Map<string, Prepared>> = {
    rows: new Map(),
    arrays: new Map(),
    column: new Map(),
  };
  constructor(readonly raw: Database.Database) {}

  private cached(mode: StatementMode, sql: string): Prepared {
    const cache = this.caches[mode];
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = this.raw.prepare(sql);
      if (mode === 'arrays') stmt.raw(true);
      if (mode === 'column') stmt.pluck(true);
      cache.set(sql, stmt);
    }
    return stmt;
  }
  prepare(sql: string): Prepared {
    return this.cached('rows', sql);
  }
  allArrays<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.cached('arrays', sql).all(...params) as T[]);
  }
  column<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.cached('column', sql).all(...params) as T[]);
  }
  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.prepare(sql).all(...params) as T[]);
  }
  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return Promise.resolve(this.prepare(sql).get(...params) as T | undefined);
  }
  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return Promise.resolve(this.prepare(sql).run(...params).changes);
  }
  runMany(sql: string, rows: readonly (readonly SqlValue[])[]): Promise<number> {
    const stmt = this.prepare(sql);
    let changes = 0;
    for (const row of rows) changes += stmt.run(...row).changes;
    return Promise.resolve(changes);
  }
}

function open(file: string, readonly: boolean): Database.Database {
  const raw = new Database(file, { readonly, fileMustExist: readonly });
  raw.pragma('busy_timeout = 10000');
  if (!readonly) {
    raw.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit survives a killed process (the WAL is written before the
    // answer); only an OS crash or power loss can lose the last commits.
    raw.pragma('synchronous = NORMAL');
    raw.pragma('foreign_keys = ON');
    // Each group-committed job runs in a SAVEPOINT, whose undo copies of the pages it changes
    // (the statement journal) spill to a new temp file past 64 KiB: a file created, written
    // and deleted for nearly every ingest batch. In memory they are a copy.
    raw.pragma('temp_store = MEMORY');
  }
  // Readers keep up to 64 MiB of pages for queries over many series. The writer's pages are
  // mostly the ones it just wrote; past 16 MiB its cache only grew the process (a 2M-point
  // ingest peaked at 197 MB RSS with 64 MiB, 164-183 MB with 16 MiB, at the same speed).
  raw.pragma(readonly ? 'cache_size = -65536' : 'cache_size = -16384');
  registerSearchFunctions(raw);
  return raw;
}

/**
 * Opens a SQLite database file: one writer connection whose transactions are serialised and
 * group-committed (GroupCommit), and one reader connection that sees only committed data
 * (WAL snapshot per statement).
 */
export function openSqlite(file: string): SqlDb {
  const writer = new Connection(open(file, false));
  const reader = new Connection(open(file, true));
  const writes = new GroupCommit(writer.raw, writer);
  const named = new Map<string, Mutex>();
  return {
    dialect: sqliteDialect,
    all: (sql, params) => reader.all(sql, params),
    get: (sql, params) => reader.get(sql, params),
    allAdHoc: <T>(sql: string, params: readonly SqlValue[] = []) =>
      Promise.resolve(reader.raw.prepare(sql).all(...params) as T[]),
    allArrays: (sql, params) => reader.allArrays(sql, params),
    column: (sql, params) => reader.column(sql, params),
    run: (sql, params) => writes.run((tx) => tx.run(sql, params)),
    runMany: (sql, rows) => writes.run((tx) => tx.runMany(sql, rows)),
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>) => writes.run(fn),
    commitStatements: (statements) =>
      writes.run(async (tx) => {
        for (const s of statements) await tx.runMany(s.sql, s.rows);
      }),
    // One process owns an embedded database file, so a process-wide lock is database-wide.
    withLock: <T>(name: string, fn: () => Promise<T>) => {
      let m = named.get(name);
      if (!m) named.set(name, (m = new Mutex()));
      return m.run(fn);
    },
    close: () =>
      writes
        .run(() => Promise.resolve())
        .then(() => {
          reader.raw.close();
          writer.raw.close();
        }),
  };
}
