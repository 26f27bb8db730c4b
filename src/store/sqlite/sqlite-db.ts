import Database from 'better-sqlite3';
import { badRequest } from '../../errors.js';
import type { Dialect, SqlDb, SqlExecutor } from '../sql/db.js';
import type { SqlValue } from '../sql/sql-value.js';
import { Mutex } from './mutex.js';
import { GroupCommit } from './group-commit.js';
import { SearchThreads } from './search-threads.js';
import { registerSearchFunctions, sqliteSearch, StatementDeadline } from './sqlite-search.js';

/** SQLite's side of the dialect. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  forUpdate: '',
  skipLocked: '',
  autoId: 'INTEGER PRIMARY KEY',
  binaryCollate: 'COLLATE BINARY',
  clusteredTable: 'WITHOUT ROWID',
  blobType: 'BLOB',
  quoteJson: (expr) => `json_quote(${expr})`,
  // An ORDER BY inside group_concat sorts apart (4x slower here); the ordered subquery's rows
  // are aggregated in their order. group_concat gives text, its bytes as joined.
  joinBlobs: (piece, fromWhere, orderBy) =>
    `SELECT CAST(group_concat(piece, x'') AS BLOB) FROM (SELECT ${piece} AS piece FROM ${fromWhere} ORDER BY ${orderBy})`,
  zeroBytes: (n) => `zeroblob(${n})`,
  throughIndex: (index) => `INDEXED BY ${index}`,
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

/** SQLite's refusals of a statement too large to compile: a filter past what the engine takes. */
const TOO_COMPLEX = /Expression tree is too large|too many terms|too many SQL variables|parser stack overflow/;

/** An engine error of an ad-hoc read as the client should see it: a statement too complex is a 400. */
export function adHocError(err: unknown): unknown {
  if (err instanceof Error && TOO_COMPLEX.test(err.message)) {
    return badRequest(`the search is too complex for the database (${err.message}); use fewer conditions`);
  }
  return err;
}

/**
 * Opens one better-sqlite3 connection (the file must exist when read-only) with the search
 * functions registered; `deadline` is checked by them while a statement runs. `mapped`: a
 * read-only connection maps the file (SqliteOptions.mapReads).
 */
export function openConnection(
  file: string,
  readonly: boolean,
  deadline: StatementDeadline,
  mapped = false,
): Database.Database {
  const raw = new Database(file, { readonly, fileMustExist: readonly });
  raw.pragma('busy_timeout = 10000');
  if (!readonly) {
    // Before the first table of a new file: freed pages can be given back (reclaimSpace).
    raw.pragma('auto_vacuum = INCREMENTAL');
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
  // Series readers map the file's first 256 MiB: a page read past the cache is then a memory
  // read, not a read() into the cache. Reading the chunks of 400 series of 20,000 points (the
  // project page's charts, more than the cache holds) took 130 instead of 190 ms of CPU. Not
  // the metadata file: mapped pages count in RSS, and ten lists reading 60 configs of 8 MB
  // grew it by 533 MB (test/e2e/list-memory.test.ts, bound 500 MB; 31-33 MB unmapped).
  if (readonly && mapped) raw.pragma('mmap_size = 268435456');
  registerSearchFunctions(raw, deadline);
  return raw;
}

/**
 * Gives freed pages back to the file system: a file made before auto_vacuum was set (mode
 * NONE) is converted by one VACUUM (a full rewrite, its time proportional to the file's
 * size; later calls are incremental), then the free pages are cut off the end and the WAL
 * is checkpointed and truncated so the files shrink on disk.
 */
function reclaim(raw: Database.Database): void {
  if (Number(raw.pragma('auto_vacuum', { simple: true })) !== 2) {
    raw.pragma('auto_vacuum = INCREMENTAL');
    raw.exec('VACUUM');
  }
  raw.pragma('incremental_vacuum');
  raw.pragma('wal_checkpoint(TRUNCATE)');
}

/** Options of openSqlite. */
export interface SqliteOptions {
  /** Threads that run ad-hoc reads (run search) off the event loop; 0 = on the caller's thread. Default 2. */
  searchThreads?: number;
  /** An ad-hoc read is stopped this many ms after it was asked for (QUERY_TIMEOUT); 0 = never (the default). */
  queryTimeoutMs?: number;
  /** The reader maps the file (the series file: chunk reads; never the metadata file, see openConnection). */
  mapReads?: boolean;
}

/**
 * Opens a SQLite database file: one writer connection whose transactions are serialised and
 * group-committed (GroupCommit), one reader connection that sees only committed data
 * (WAL snapshot per statement), and search threads with read connections of their own for
 * ad-hoc reads, each stopped at its deadline (see SqliteOptions).
 */
export function openSqlite(file: string, options: SqliteOptions = {}): SqlDb {
  const timeoutMs = options.queryTimeoutMs ?? 0;
  const writer = new Connection(openConnection(file, false, new StatementDeadline(timeoutMs)));
  const readerDeadline = new StatementDeadline(timeoutMs);
  const reader = new Connection(openConnection(file, true, readerDeadline, options.mapReads === true));
  const threads =
    (options.searchThreads ?? 2) > 0 ? new SearchThreads(file, options.searchThreads ?? 2, timeoutMs) : null;
  /** An ad-hoc read on the reader connection: stopped at its deadline, but on this thread. */
  const adHocHere = <T>(sql: string, params: readonly SqlValue[]): Promise<T[]> => {
    try {
      const at = timeoutMs > 0 ? Date.now() + timeoutMs : 0;
      return Promise.resolve(readerDeadline.run(at, () => reader.raw.prepare(sql).all(...params) as T[]));
    } catch (err) {
      return Promise.reject(adHocError(err) as Error);
    }
  };
  const writes = new GroupCommit(writer.raw, writer);
  const named = new Map<string, Mutex>();
  return {
    dialect: sqliteDialect,
    all: (sql, params) => reader.all(sql, params),
    get: (sql, params) => reader.get(sql, params),
    allAdHoc: <T>(sql: string, params: readonly SqlValue[] = []) =>
      threads ? threads.all<T>(sql, params) : adHocHere<T>(sql, params),
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
    reclaimSpace: () => writes.runOutside(() => reclaim(writer.raw)),
    close: () =>
      writes
        .run(() => Promise.resolve())
        .then(() => threads?.close())
        .then(() => {
          reader.raw.close();
          writer.raw.close();
        }),
  };
}

/**
 * A read-only SqlDb over one mapped read connection to a file (the series file's bucket
 * threads, bucket-worker.ts): reads only; every write, transaction and ad-hoc read throws.
 */
export function openReadOnly(file: string): SqlDb {
  const reader = new Connection(openConnection(file, true, new StatementDeadline(0), true));
  const refuse = () => Promise.reject(new Error('this connection only reads'));
  return {
    dialect: sqliteDialect,
    all: (sql, params) => reader.all(sql, params),
    get: (sql, params) => reader.get(sql, params),
    allArrays: (sql, params) => reader.allArrays(sql, params),
    column: (sql, params) => reader.column(sql, params),
    allAdHoc: refuse,
    run: refuse,
    runMany: refuse,
    transaction: refuse,
    commitStatements: refuse,
    withLock: refuse,
    reclaimSpace: refuse,
    close: () => {
      reader.raw.close();
      return Promise.resolve();
    },
  };
}
