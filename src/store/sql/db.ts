/**
 * The thin query layer every SQL store is written against. Queries use `?` placeholders;
 * each engine's dialect module turns them into what the engine wants.
 */
import type { SearchDialect } from './search-dialect.js';
import type { SqlValue } from './sql-value.js';

/** Runs statements. Implementations are one connection or one open transaction. */
export interface SqlExecutor {
  /** All rows of a query, in the order the query gives. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * All rows of a query as arrays of column values in select-list order, for reads of many
   * rows: no object per row with a key per column (a 10,000-row page reads in about half the time).
   */
  allArrays<T extends readonly unknown[] = SqlValue[]>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * The first column of every row of a query, in order, for reads of many one-value rows:
   * SQLite makes no array per row (a 10,000-row page in about two thirds of allArrays' time).
   */
  column<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; returns the number of rows changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs one statement once per row of parameters (bulk insert/upsert); returns rows changed. */
  runMany(sql: string, rows: readonly (readonly SqlValue[])[]): Promise<number>;
}

/** What differs between engines, kept in one small module per engine. */
export interface Dialect {
  readonly name: string;
  /** Suffix for a SELECT that must lock the rows it reads until the transaction ends. */
  readonly forUpdate: string;
  /**
   * Suffix for a SELECT that locks the rows it reads and skips rows another transaction
   * holds locked (a queue several servers claim from); '' where writers are serialised.
   */
  readonly skipLocked: string;
  /** Column type of an auto-increment integer primary key. */
  readonly autoId: string;
  /** Collation clause giving binary (code point) order of text. */
  readonly binaryCollate: string;
  /** Table option for tables keyed by their primary key only. */
  readonly clusteredTable: string;
  /** Column type of packed binary data (BLOB, bytea). */
  readonly blobType: string;
  /** An SQL expression giving a text expression as a JSON string literal (quoted, escaped). */
  quoteJson(expr: string): string;
  /**
   * A SELECT giving one row and column: the blobs `piece` of the rows of `fromWhere` (a table
   * and its WHERE) joined into one, in `orderBy` order (NULL without rows), so a read of many
   * small blobs crosses to JS as one value.
   */
  joinBlobs(piece: string, fromWhere: string, orderBy: string): string;
  /** An SQL expression giving a blob of `n` zero bytes. */
  zeroBytes(n: number): string;
  /**
   * An SQL expression giving the 8 big-endian bytes of a BIGINT or DOUBLE PRECISION
   * expression, as a blob; only where the engine has SqlDb.readMany (PostgreSQL).
   */
  numberBytes?(expr: string, type: 'bigint' | 'double'): string;
  /**
   * Put after a table's name in FROM: read it through `index` where the engine takes such a
   * hint (SQLite's INDEXED BY), for a read its planner would send through another index; ''
   * elsewhere.
   */
  throughIndex(index: string): string;
  /** JSON, regex and text pieces of run search. */
  readonly search: SearchDialect;
}

/** Options of SqlDb.transaction. */
export interface TransactionOptions {
  /**
   * fn sends statements that need not wait for each other's answers at once (Promise.all):
   * an engine reached over the network may pipeline them, and its BEGIN, instead of waiting
   * a round trip for each (PostgreSQL; such a transaction loads large batches with
   * multi-row statements, not COPY, which a pipelined connection cannot run).
   */
  pipelined?: boolean;
}

/** A statement run once per row of parameters, as SqlExecutor.runMany runs it. */
export interface Statement {
  sql: string;
  rows: readonly (readonly SqlValue[])[];
}

/**
 * How readMany gives a column: a BIGINT, a DOUBLE PRECISION, a blob as a Uint8Array, or a
 * blob as a ByteSpan (no object made per row).
 */
export type ColumnForm = 'int' | 'float' | 'bytes' | 'span';

/** Where a blob lies in the bytes of a read's answer: `length` bytes of `view` from `at`. */
export interface ByteSpan {
  view: DataView;
  at: number;
  length: number;
}

/** A database: reads outside transactions, serialised write transactions. */
export interface SqlDb extends SqlExecutor {
  readonly dialect: Dialect;
  /**
   * All rows of a read whose text is built per request (run search filters): it is neither
   * prepared by name nor cached, so endless distinct texts cannot fill a statement cache.
   * Its cost is the client's to choose, so it runs off the event loop (SQLite: a search
   * thread; PostgreSQL: its own small pool) and is stopped at the database's query timeout:
   * throws QUERY_TIMEOUT then, OVERLOADED when it waited that long for a free reader, and
   * BAD_REQUEST when the engine refuses the statement as too complex.
   */
  allAdHoc<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Runs fn inside one write transaction; commits when it resolves, rolls back when it
   * throws (and rethrows). Transactions that touch the same rows are serialised. An engine
   * may run fn again after a serialisation failure, deadlock or unique-key race (a few
   * times at most), so fn must do nothing but its statements on tx.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs one read once per row of integer parameters, all in one statement, and hands each row
   * to `onRow` with the index of its parameter row: a parameter row's rows in the read's order,
   * parameter rows in order. Columns come as `columns` says (int and float as numbers, null as
   * null, bytes as a Uint8Array, span as a ByteSpan refilled for each row); the row and its
   * bytes are valid during the call only. Only
   * an engine reached over the network has it (PostgreSQL: the rows come as COPY … TO STDOUT
   * in binary, so blobs cross as bytes, not hex text, and many reads take one round trip);
   * calls at once run on connections of their own. Throws what onRow throws, or the engine's error.
   */
  readMany?(
    sql: string,
    params: readonly (readonly number[])[],
    columns: readonly ColumnForm[],
    onRow: (index: number, row: readonly unknown[]) => void,
  ): Promise<void>;
  /**
   * Runs the statements in order in one write transaction and commits it. Nothing is read
   * in between, so an engine reached over the network sends BEGIN, every statement and
   * COMMIT at once: one round trip (PostgreSQL). When a statement fails, none of them is
   * kept and the promise rejects; a check must therefore be a statement that fails, not
   * code reading a result. Not run again after a serialisation failure: the caller decides.
   */
  commitStatements(statements: readonly Statement[]): Promise<void>;
  /**
   * Runs fn while holding the database-wide lock `name` (every process on the same
   * database waits for it, e.g. migrations of servers starting at once); returns its result.
   */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Gives the space of deleted rows back to the file system where the engine keeps it
   * (SQLite: incremental vacuum, then a WAL checkpoint that truncates the files; a file
   * created before auto_vacuum was on is converted by one full VACUUM first). PostgreSQL:
   * nothing (its autovacuum reuses the space of deleted rows).
   */
  reclaimSpace(): Promise<void>;
  /** Closes every connection; pending transactions finish first. */
  close(): Promise<void>;
}
