/**
 * The summary of a fork's effective series from chunk statistics (issue 12 §1): each
 * segment's chunks inside its step range give their stored moments; only the chunks cut by a
 * segment's ends are decoded. A fork of a huge parent is summarised without reading every
 * inherited point.
 */
import { chunkStats, lowerBound } from './chunk-codec.js';
import { CHUNK_STAT_COLUMNS, overlapping, readChunk, rowKey, rowPoints, rowStats } from './chunk-rows.js';
import type { ChunkRow } from './chunk-rows.js';
import type { Segment } from './chunk-sample.js';
import type { SqlExecutor } from '../db.js';
import { stateOfChunks } from '../metrics/metric-recompute.js';
import { emptyState, type SeriesState } from '../metrics/series-row.js';

/**
 * Returns the summary of the points of disjoint segments given in ascending step order (as
 * segmentsOf gives them), merged by Chan's formula. Reads one statistics row per chunk and
 * decodes at most two chunks per segment.
 */
export async function segmentsState(tx: SqlExecutor, segments: readonly Segment[]): Promise<SeriesState> {
  const state = emptyState();
  for (const seg of segments) {
    const range = overlapping(seg.seriesId, seg.from, seg.to);
    const rows = await tx.all<ChunkRow>(
      `SELECT ${CHUNK_STAT_COLUMNS} FROM metric_chunks WHERE ${range.where} ORDER BY first_step, first_tie`,
      range.params,
    );
    for (const r of rows) {
      if (Number(r.first_step) >= seg.from && Number(r.last_step) <= seg.to) {
        stateOfChunks([rowStats(r)], state);
        continue;
      }
      const row = await readChunk(tx, seg.seriesId, rowKey(r));
      if (!row) continue;
      const c = rowPoints(row);
      const from = lowerBound(c.steps, seg.from);
      const to = lowerBound(c.steps, seg.to + 1);
      if (to > from) stateOfChunks([chunkStats(c, from, to)], state);
    }
  }
  return state;
}
