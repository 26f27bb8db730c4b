import { createHash } from 'node:crypto';

const MASK = (1n << 64n) - 1n;

/**
 * The canonical text of one value, the same for a value read from SQLite and from
 * PostgreSQL: NULL, a number (an integer read as bigint or as number prints the same), text,
 * or bytes in hex.
 */
function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  if (typeof v === 'bigint') return `n${String(Number(v))}`;
  if (typeof v === 'number') return `n${String(v)}`;
  if (Buffer.isBuffer(v)) return `x${v.toString('hex')}`;
  return `s${String(v)}`;
}

/**
 * An order-independent checksum of a set of rows: the sum, modulo 2^64, of the first 8 bytes
 * of each row's SHA-256 over its canonical values. Two sides agree when they hold the same
 * rows, whatever order each reads them in.
 */
export class RowDigest {
  rows = 0;
  private sum = 0n;

  /** Adds one row (its values in column order). */
  add(values: readonly unknown[]): void {
    const hash = createHash('sha256');
    for (const v of values) {
      const text = canonical(v);
      hash.update(`${text.length}:`).update(text);
    }
    this.sum = (this.sum + hash.digest().readBigUInt64BE(0)) & MASK;
    this.rows++;
  }

  /** The checksum as 16 hex digits. */
  hex(): string {
    return this.sum.toString(16).padStart(16, '0');
  }
}
