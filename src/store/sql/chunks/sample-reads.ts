/**
 * The reads of a sampled read (chunk-sample.ts): the chunks' index rows of every segment and
 * the bytes of the chunks it decodes. Where the engine has SqlDb.readMany (PostgreSQL) they
 * come through it: all segments' index rows in one statement, numbers and bytes in binary
 * (node-postgres reads a BIGINT as text to parse and a bytea as hex text: twice the bytes).
 */
import { viewChunk, type ChunkView } from './chunk-codec.js';
import { EXTREME_COLUMNS, keyOfRow, type ExtremeRow } from './chunk-pieces.js';
import { overlapping, readChunk, type ChunkKey } from './chunk-rows.js';
import type { ColumnForm, SqlDb, SqlExecutor } from '../db.js';

/** One series' share of an effective series: its own points in [from, to]. */
export interface Segment {
  seriesId: number;
  from: number;
  to: number;
}

/** What a sampled read reads through: statements, and SqlDb.readMany where the engine has it. */
export type SampleReader = SqlExecutor & Pick<SqlDb, 'readMany'>;

/** The index rows of a segment's chunks (parameters: overlapping's six), by ascending key. */
const EXTREMES_READ = `SELECT ${EXTREME_COLUMNS} FROM metric_chunks WHERE ${overlapping(0, 0, 0).where} ORDER BY first_step, first_tie`;
/** The forms of EXTREME_COLUMNS (SqlDb.readMany). */
const EXTREME_FORMS: readonly ColumnForm[] = ['int', 'int', 'int', 'int', 'float', 'int', 'int', 'float', 'int', 'int'];

/** The bytes of a segment's chunks (parameters: overlapping's six), by ascending key. */
const BYTES_READ = `SELECT first_step, first_tie, data FROM metric_chunks WHERE ${overlapping(0, 0, 0).where} ORDER BY first_step, first_tie`;
const BYTES_FORMS: readonly ColumnForm[] = ['int', 'int', 'bytes'];
/** The bytes of one chunk (parameters: series id, first step, first tie). */
const CHUNK_READ = 'SELECT data FROM metric_chunks WHERE series_id = ? AND first_step = ? AND first_tie = ?';

const paramsOf = (seg: Segment): number[] => overlapping(seg.seriesId, seg.from, seg.to).params as number[];

/** Returns the index rows (EXTREME_COLUMNS) of each segment's chunks, by ascending key, in segment order. */
export async function readExtremes(tx: SampleReader, segments: readonly Segment[]): Promise<ExtremeRow[][]> {
  if (tx.readMany) {
    const out: ExtremeRow[][] = segments.map(() => []);
    await tx.readMany(EXTREMES_READ, segments.map(paramsOf), EXTREME_FORMS, (i, r) => {
      out[i]!.push(r.slice() as ExtremeRow);
    });
    return out;
  }
  const out: ExtremeRow[][] = [];
  for (const seg of segments) out.push(await tx.allArrays(EXTREMES_READ, paramsOf(seg)));
  return out;
}

const idOf = (seriesId: number, key: ChunkKey): string => `${seriesId}:${key.step}:${key.tie}`;
/** A chunk of no points (its header's count is 0, time form 0). */
const EMPTY_CHUNK = new Uint8Array(40);

/** Chunks of one read, by series and key: their bytes, decoded when points are asked for. */
export class Decoded {
  private readonly held = new Map<string, ChunkView>();
  private readonly bytesHeld = new Map<string, Uint8Array>();
  constructor(private readonly tx: SampleReader) {}
  /** Returns the chunk's points (none when it is gone). */
  async get(seriesId: number, key: ChunkKey): Promise<ChunkView> {
    let c = this.held.get(idOf(seriesId, key));
    if (!c) {
      c = viewChunk(await this.bytes(seriesId, key));
      this.held.set(idOf(seriesId, key), c);
    }
    return c;
  }
  /** Returns the bytes of the segment's chunks by series and key (idOf), in one query. */
  async range(seg: Segment): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    if (this.tx.readMany) {
      await this.tx.readMany(BYTES_READ, [paramsOf(seg)], BYTES_FORMS, (_, r) => {
        // A copy: the row's bytes are valid during the call only.
        out.set(idOf(seg.seriesId, keyOfRow(r as ExtremeRow)), new Uint8Array(r[2] as Uint8Array));
      });
      return out;
    }
    for (const r of await this.tx.allArrays(BYTES_READ, paramsOf(seg))) {
      out.set(idOf(seg.seriesId, keyOfRow(r)), r[2] as Uint8Array);
    }
    return out;
  }
  /**
   * Reads the bytes of these chunks in one statement where the engine has SqlDb.readMany
   * (else they are read when asked for); a chunk that is gone is left to `bytes`.
   */
  async load(chunks: readonly { seriesId: number; key: ChunkKey }[]): Promise<void> {
    const todo = chunks.filter((c) => !this.bytesHeld.has(idOf(c.seriesId, c.key)));
    if (!this.tx.readMany || todo.length === 0) return;
    const params = todo.map((c) => [c.seriesId, c.key.step, c.key.tie]);
    await this.tx.readMany(CHUNK_READ, params, ['bytes'], (i, r) => {
      const c = todo[i]!;
      this.bytesHeld.set(idOf(c.seriesId, c.key), new Uint8Array(r[0] as Uint8Array));
    });
  }
  /** Returns the bytes of one chunk (a chunk of no points when it is gone). */
  async bytes(seriesId: number, key: ChunkKey): Promise<Uint8Array> {
    let b = this.bytesHeld.get(idOf(seriesId, key));
    if (!b) {
      b = (await readChunk(this.tx, seriesId, key))?.data ?? EMPTY_CHUNK;
      this.bytesHeld.set(idOf(seriesId, key), b);
    }
    return b;
  }
}

export { idOf };
