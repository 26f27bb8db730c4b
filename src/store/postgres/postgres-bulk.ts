/**
 * Bulk statements on PostgreSQL. An `INSERT INTO t (cols) VALUES (?, …) [ON CONFLICT …]`
 * run for many rows becomes multi-row VALUES statements in chunks, or, for large batches,
 * one COPY into a temporary table followed by one INSERT … SELECT with the same conflict
 * clause. Other statements run once per row as a prepared statement.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SqlValue } from '../sql/sql-value.js';
import { statementName, toPositional } from './postgres-dialect.js';

/** Batches of at least this many rows go through COPY (measured: see BENCHMARKS.md). */
export const COPY_MIN_ROWS = 1000;
/** Rows per multi-row VALUES statement (also bounded by 65,535 parameters). */
const VALUES_CHUNK = 500;
/** Multi-row statements of at most this many rows are prepared by name. */
const NAMED_MAX_ROWS = 64;

/** An INSERT statement taken apart: target, columns, one row's tuple and what follows it. */
interface InsertShape {
  table: string;
  columns: string;
  tuple: string[];
  tail: string;
}

const shapes = new Map<string, InsertShape | null>();

/** The INSERT's parts when it has one `VALUES (…)` tuple of plain `?`s and literals, else null. */
function parseInsert(sql: string): InsertShape | null {
  const cached = shapes.get(sql);
  if (cached !== undefined) return cached;
  const m = /^\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)\s*VALUES\s*\(([^()'"]*)\)([\s\S]*)$/i.exec(
    sql,
  );
  const shape = m ? { table: m[1]!, columns: m[2]!, tuple: m[3]!.split('?'), tail: m[4]! } : null;
  const plain =
    shape !== null && shape.tuple.every((part, i, all) => part.trim() === (i === 0 || i === all.length - 1 ? '' : ','));
  const out = plain && shape.tuple.length - 1 === shape.columns.split(',').length ? shape : null;
  shapes.set(sql, out);
  return out;
}

/** Multi-row VALUES in chunks; returns the rows changed. */
async function insertValues(
  client: pg.PoolClient,
  s: InsertShape,
  rows: readonly (readonly SqlValue[])[],
): Promise<number> {
  const width = s.tuple.length - 1;
  const per = Math.max(1, Math.min(VALUES_CHUNK, Math.floor(65_535 / width)));
  const sent: Promise<pg.QueryResult>[] = [];
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    const values: SqlValue[] = [];
    const tuples = part.map((row, r) => {
      values.push(...row);
      return `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`;
    });
    const text = `INSERT INTO ${s.table} (${s.columns}) VALUES ${tuples.join(', ')}${s.tail}`;
    // Named when small (a request's chunks and series): each connection parses and plans
    // those texts once; larger ones stay unnamed so no connection keeps hundreds of big plans.
    const name = part.length <= NAMED_MAX_ROWS ? statementName(text) : undefined;
    sent.push(client.query({ name, text, values: values as unknown[] }));
  }
  // Sent in order without waiting in between: a pipelined connection sends them at once.
  return (await Promise.all(sent)).reduce((sum, r) => sum + (r.rowCount ?? 0), 0);
}

/** Returns one value in COPY text format. */
function copyText(v: SqlValue): string {
  if (v === null) return '\\N';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
  return v.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** Yields the rows as COPY text in chunks of roughly 64 KiB. */
function* copyChunks(rows: readonly (readonly SqlValue[])[]): Generator<string> {
  let buf = '';
  for (const row of rows) {
    buf += `${row.map(copyText).join('\t')}\n`;
    if (buf.length >= 65_536) {
      yield buf;
      buf = '';
    }
  }
  if (buf.length > 0) yield buf;
}

/**
 * COPY into a per-session temporary table shaped like the columns, then move the rows with
 * one INSERT … SELECT carrying the statement's conflict clause. Must run in a transaction.
 */
async function insertCopy(
  client: pg.PoolClient,
  s: InsertShape,
  rows: readonly (readonly SqlValue[])[],
): Promise<number> {
  const cols = s.columns;
  const temp = `stepwise_bulk_${createHash('sha1').update(`${s.table}(${cols})`).digest('hex').slice(0, 16)}`;
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS ${temp} ON COMMIT DELETE ROWS AS SELECT ${cols} FROM ${s.table} WITH NO DATA`,
  );
  await pipeline(Readable.from(copyChunks(rows)), client.query(copyFrom(`COPY ${temp} (${cols}) FROM STDIN`)));
  const moved = await client.query(
    `WITH moved AS (DELETE FROM ${temp} RETURNING ${cols}) INSERT INTO ${s.table} (${cols}) SELECT ${cols} FROM moved${s.tail}`,
  );
  return moved.rowCount ?? 0;
}

/**
 * Runs sql once per row of parameters on a client inside a transaction, the fastest way
 * the statement allows. Returns the rows changed. Callers must not repeat a conflict key
 * within one call when the statement updates on conflict (PostgreSQL refuses that).
 */
export async function runManyOn(
  client: pg.PoolClient,
  sql: string,
  rows: readonly (readonly SqlValue[])[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const shape = rows.length > 1 ? parseInsert(sql) : null;
  // A pipelined connection cannot run COPY.
  if (shape && rows.length >= COPY_MIN_ROWS && !client.pipeline) return insertCopy(client, shape, rows);
  if (shape) return insertValues(client, shape, rows);
  const text = toPositional(sql);
  const name = statementName(text);
  if (client.pipeline) {
    const sent = rows.map((row) => client.query({ name, text, values: row as unknown[] }));
    return (await Promise.all(sent)).reduce((sum, r) => sum + (r.rowCount ?? 0), 0);
  }
  let changed = 0;
  for (const row of rows) changed += (await client.query({ name, text, values: row as unknown[] })).rowCount ?? 0;
  return changed;
}
