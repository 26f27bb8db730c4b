/**
 * PostgreSQL's SqlDb.readMany: one read run once per row of integer parameters as one
 * statement (the parameter rows unnested WITH ORDINALITY, the read joined LATERAL to each,
 * so each parameter row's rows keep the read's ORDER BY), sent as COPY … TO STDOUT in binary
 * form. node-postgres reads a bytea as hex text (twice the bytes, then a parse) and a read per
 * parameter row waits a round trip each; here blobs cross as their bytes, all in one answer.
 * Measured in-process on the groups/metrics bench data (100 series of 100,000 points, 85 MB
 * of chunk heads): 1,030–1,240 ms as a hex `string_agg` per series, 420–560 ms through one COPY,
 * 270–300 ms through two at once.
 */
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ByteSpan, ColumnForm } from '../sql/db.js';
import { replacePlaceholders } from './postgres-dialect.js';

/** The bytes before the first tuple of a binary COPY: signature, flags, header extension length. */
const HEADER_BYTES = 19;

/** The COPY statement: the read with its n-th `?` as the n-th column of the unnested parameter rows. */
export function readManySql(sql: string, params: readonly (readonly number[])[]): string {
  const width = params[0]!.length;
  const arrays: string[] = [];
  for (let j = 0; j < width; j++) {
    const column = params.map((row) => {
      const v = row[j];
      if (row.length !== width || !Number.isSafeInteger(v)) throw new Error('readMany takes rows of integers only');
      return String(v);
    });
    arrays.push(`'{${column.join(',')}}'::bigint[]`);
  }
  const names = arrays.map((_, j) => `p${j + 1}`).join(', ');
  let used = 0;
  const read = replacePlaceholders(sql, (n) => {
    used = n;
    return `s.p${n}`;
  });
  if (used !== width) throw new Error(`the read has ${used} parameters, its rows ${width}`);
  return (
    `COPY (SELECT s.k, r.* FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS s(${names}, k) ` +
    `CROSS JOIN LATERAL (${read}) AS r) TO STDOUT (FORMAT binary)`
  );
}

/** An int8, int4 or int2 field of `len` bytes at `at` as a number (ids and steps fit in 2^53). */
function intAt(buf: Buffer, at: number, len: number): number {
  if (len === 8) return buf.readInt32BE(at) * 2 ** 32 + buf.readUInt32BE(at + 4);
  return len === 4 ? buf.readInt32BE(at) : buf.readInt16BE(at);
}

const EMPTY = Buffer.alloc(0);

/** The byte at `i` of a followed by b. */
const byteOf = (a: Buffer, b: Buffer, i: number): number => (i < a.length ? a[i]! : (b[i - a.length] ?? 0));

/** The big-endian int32 at `i` of a followed by b (undefined past their end). */
function int32Of(a: Buffer, b: Buffer, i: number): number | undefined {
  if (i + 4 > a.length + b.length) return undefined;
  return (
    ((byteOf(a, b, i) << 24) | (byteOf(a, b, i + 1) << 16) | (byteOf(a, b, i + 2) << 8) | byteOf(a, b, i + 3)) >> 0
  );
}

/** The bytes of the COPY header at the start of a followed by b, or -1 when not all there to tell. */
function headerBytes(a: Buffer, b: Buffer): number {
  const ext = int32Of(a, b, 15);
  return ext === undefined ? -1 : HEADER_BYTES + ext;
}

/** The bytes of the tuple (or trailer) at the start of a followed by b, or -1 when not all there to tell. */
function tupleBytes(a: Buffer, b: Buffer): number {
  if (a.length + b.length < 2) return -1;
  const fields = (((byteOf(a, b, 0) << 8) | byteOf(a, b, 1)) << 16) >> 16;
  if (fields === -1) return 2;
  let p = 2;
  for (let f = 0; f < fields; f++) {
    const len = int32Of(a, b, p);
    if (len === undefined) return -1;
    p += 4 + Math.max(0, len);
  }
  return p;
}

/**
 * Parses a binary COPY stream fed in pieces; hands each tuple to onRow as (k - 1, its other
 * columns), in one array refilled for each tuple.
 */
export class CopyTuples {
  private rest: Buffer | undefined;
  private started = false;
  private ended = false;
  /** The row handed to onRow, refilled for each tuple (onRow must not keep it). */
  private readonly row: unknown[] = [];
  /** The spans of the row's span columns, refilled for each tuple. */
  private readonly spans: ByteSpan[];
  /** The buffer whose view the spans hold. */
  private viewed: Buffer | undefined;

  constructor(
    private readonly columns: readonly ColumnForm[],
    private readonly onRow: (index: number, row: readonly unknown[]) => void,
  ) {
    this.spans = columns.map(() => ({ view: new DataView(EMPTY.buffer, 0, 0), at: 0, length: 0 }));
  }

  /** Column c's span, over `len` bytes of buf from `at` (one DataView per buffer, not per tuple). */
  private spanOf(c: number, buf: Buffer, at: number, len: number): ByteSpan {
    const span = this.spans[c]!;
    if (this.viewed !== buf) {
      this.viewed = buf;
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      for (const s of this.spans) s.view = view;
    }
    span.at = at;
    span.length = len;
    return span;
  }

  /**
   * Parses the whole tuples of the stream so far; keeps a partial one for the next piece. A
   * tuple split between pieces is joined alone (not the whole piece: a copy of every piece
   * made the read's garbage collection twice as long).
   */
  push(piece: Buffer): void {
    let at = 0;
    if (this.rest) {
      const need = this.started ? tupleBytes(this.rest, piece) : headerBytes(this.rest, piece);
      if (need < 0 || need - this.rest.length > piece.length) {
        this.rest = Buffer.concat([this.rest, piece]);
        return;
      }
      at = need - this.rest.length;
      const joined = Buffer.concat([this.rest, piece.subarray(0, at)]);
      this.rest = undefined;
      if (!this.started) this.started = true;
      else this.tuple(joined, 0);
    } else if (!this.started) {
      const need = headerBytes(piece, EMPTY);
      if (need < 0 || need > piece.length) {
        this.rest = piece;
        return;
      }
      at = need;
      this.started = true;
    }
    for (;;) {
      const next = this.tuple(piece, at);
      if (next < 0) break;
      at = next;
    }
    this.rest = at < piece.length ? piece.subarray(at) : undefined;
  }

  /** Throws when the stream stopped inside a tuple or before its trailer. */
  end(): void {
    if (!this.ended || this.rest) throw new Error('the COPY answer ended early');
  }

  /** Parses the tuple at `at`; returns the offset after it, or -1 when it is not all here (or the trailer came). */
  private tuple(buf: Buffer, at: number): number {
    if (this.ended || at + 2 > buf.length) return -1;
    const fields = buf.readInt16BE(at);
    if (fields === -1) {
      this.ended = true;
      return at + 2;
    }
    if (fields !== this.columns.length + 1) throw new Error(`the COPY answer has ${fields} columns a row`);
    // One pass: the row is handed on only when every field of the tuple is here.
    if (at + 6 > buf.length) return -1;
    const kLen = buf.readInt32BE(at + 2);
    let p = at + 6 + kLen;
    if (p > buf.length) return -1;
    const k = intAt(buf, at + 6, kLen);
    const row = this.row;
    for (let c = 0; c < this.columns.length; c++) {
      if (p + 4 > buf.length) return -1;
      const len = buf.readInt32BE(p);
      p += 4;
      if (len < 0) {
        row[c] = null;
        continue;
      }
      if (p + len > buf.length) return -1;
      const form = this.columns[c];
      if (form === 'span') row[c] = this.spanOf(c, buf, p, len);
      else if (form === 'bytes') row[c] = buf.subarray(p, p + len);
      else row[c] = form === 'float' ? buf.readDoubleBE(p) : intAt(buf, p, len);
      p += len;
    }
    this.onRow(k - 1, row);
    return p;
  }
}

/** SqlDb.readMany on a connection of `pool` (released, or dropped when the read failed). */
export async function readManyOn(
  pool: pg.Pool,
  sql: string,
  params: readonly (readonly number[])[],
  columns: readonly ColumnForm[],
  onRow: (index: number, row: readonly unknown[]) => void,
): Promise<void> {
  if (params.length === 0) return;
  const text = readManySql(sql, params);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const tuples = new CopyTuples(columns, onRow);
    for await (const piece of client.query(copyTo(text))) tuples.push(piece as Buffer);
    tuples.end();
  } catch (err) {
    // A COPY left unread leaves the connection mid-answer: it is not given back.
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
