import Database from 'better-sqlite3';

/** A table as the copy reads it: its columns and the columns that order it (its key). */
export interface SourceTable {
  name: string;
  columns: string[];
  /** Primary-key columns in key order, or `['rowid']` for a table without one. */
  key: string[];
}

/** A value read from a source row: integers as bigint (exact past 2^53), blobs as Buffer. */
export type SourceValue = bigint | number | string | Buffer | null;

/** Names the copy passes into SQL text unquoted: plain lower-case identifiers only. */
const PLAIN = /^[a-z_][a-z0-9_]*$/;

/**
 * One SQLite database file opened read-only for copying out: tables listed from the file's
 * own schema (so tables added by later migrations are found without a list to keep), rows
 * read in key order in pages that resume after a given key.
 */
export class SqliteSource {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 10000');
  }

  /**
   * Starts a read transaction that every later read of this source stays in until close(),
   * so they all see the file as of one commit even while a server writes to it.
   */
  pinSnapshot(): void {
    this.db.exec('BEGIN');
    this.db.prepare('SELECT COUNT(*) FROM sqlite_master').pluck().get();
  }

  /** Every table of the file with its columns and key; throws on a name that is not a plain identifier. */
  tables(): SourceTable[] {
    const names = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return names.map((name) => {
      if (!PLAIN.test(name)) throw new Error(`table name ${JSON.stringify(name)} is not a plain identifier`);
      const info = this.db.pragma(`table_info(${name})`) as { name: string; pk: number }[];
      for (const c of info) {
        if (!PLAIN.test(c.name)) throw new Error(`column ${name}.${c.name} is not a plain identifier`);
      }
      const key = info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      return { name, columns: info.map((c) => c.name), key: key.length > 0 ? key : ['rowid'] };
    });
  }

  /** The number of rows of a table. */
  count(table: string): number {
    return Number(this.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get());
  }

  /** The number of rows of table after the key `after`. */
  countAfter(table: SourceTable, after: readonly SourceValue[]): number {
    const where = `(${table.key.join(', ')}) > (${table.key.map(() => '?').join(', ')})`;
    return Number(
      this.db
        .prepare(`SELECT COUNT(*) FROM ${table.name} WHERE ${where}`)
        .pluck()
        .safeIntegers(true)
        .get(...after),
    );
  }

  /**
   * Rows of table after the key `after` (from the start when undefined), in key order, each
   * as its key values followed by the values of `columns`: up to `limit` rows, fewer when
   * they pass `maxBytes` of text and blobs (at least one row).
   */
  page(
    table: SourceTable,
    columns: readonly string[],
    after: readonly SourceValue[] | undefined,
    limit: number,
    maxBytes = 32 * 1024 * 1024,
  ): { key: SourceValue[]; values: SourceValue[] }[] {
    const keyList = table.key.join(', ');
    const where = after === undefined ? '' : `WHERE (${keyList}) > (${table.key.map(() => '?').join(', ')}) `;
    const sql = `SELECT ${[...table.key, ...columns].join(', ')} FROM ${table.name} ${where}ORDER BY ${keyList} LIMIT ?`;
    const rows = this.db
      .prepare(sql)
      .raw(true)
      .safeIntegers(true)
      .iterate(...(after ?? []), limit) as IterableIterator<SourceValue[]>;
    const out: { key: SourceValue[]; values: SourceValue[] }[] = [];
    let bytes = 0;
    for (const row of rows) {
      out.push({ key: row.slice(0, table.key.length), values: row.slice(table.key.length) });
      for (const v of row) if (typeof v === 'string' || Buffer.isBuffer(v)) bytes += v.length;
      if (bytes >= maxBytes) break;
    }
    return out;
  }

  /**
   * Up to `limit` files whose bytes were uploaded, after file id `after`, in id order, or
   * none when the file has no `files` table.
   */
  uploadedBlobs(after: number, limit: number): { id: number; key: string; size: number }[] {
    if (!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'files'").get()) return [];
    return this.db
      .prepare(
        'SELECT id, blob_key AS key, file_size AS size FROM files WHERE uploaded_at IS NOT NULL AND id > ? ORDER BY id LIMIT ?',
      )
      .all(after, limit) as { id: number; key: string; size: number }[];
  }

  /** Ends the pinned snapshot, if any, and closes the file. */
  close(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }
}
