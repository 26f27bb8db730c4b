/** A series' summary from its chunks' statistics (no points decoded). */
import { mergeMoments } from '../../../domain/summary.js';
import { emptyState, type SeriesState } from './series-row.js';
import type { ChunkStats } from '../chunks/chunk-codec.js';

/** Returns the summary of chunks in ascending key order, their moments merged by Chan's formula. */
export function stateOfChunks(chunks: Iterable<ChunkStats>, into: SeriesState = emptyState()): SeriesState {
  const s = into;
  for (const c of chunks) {
    s.points += c.points;
    if (s.firstStep === null) s.firstStep = c.firstStep;
    s.maxStep = c.lastStep;
    if (s.firstTime === null || c.firstTime < s.firstTime) s.firstTime = c.firstTime;
    if (s.lastTime === null || c.lastTime > s.lastTime) s.lastTime = c.lastTime;
    if (c.lastFiniteStep !== null) {
      s.lastStep = c.lastFiniteStep;
      s.lastValue = c.lastFiniteValue;
    }
    s.moments = mergeMoments(s.moments, c.moments);
  }
  return s;
}

const earliest = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.min(x, y));
const latest = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.max(x, y));

/**
 * Returns the summary of two runs of chunks, `a`'s keys all before `b`'s: what stateOfChunks
 * gives for a's chunks followed by b's (an associative merge, so summaries can be kept in a tree).
 */
export function mergeStates(a: SeriesState, b: SeriesState): SeriesState {
  const finite = b.lastStep !== null ? b : a;
  return {
    moments: mergeMoments(a.moments, b.moments),
    lastStep: finite.lastStep,
    lastValue: finite.lastValue,
    points: a.points + b.points,
    firstStep: a.firstStep ?? b.firstStep,
    maxStep: b.maxStep ?? a.maxStep,
    firstTime: earliest(a.firstTime, b.firstTime),
    lastTime: latest(a.lastTime, b.lastTime),
  };
}
