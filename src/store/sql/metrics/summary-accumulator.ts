import { mergeMoments, momentsOf } from '../../../domain/summary.js';
import { emptyState, type SeriesState, type StoredPoint } from './series-row.js';

/** Finite values are summarised in chunks of this many (two-pass each), then Chan-merged. */
const CHUNK = 4096;

/**
 * Builds a series' summary from its points fed in ascending step order, in O(CHUNK) memory:
 * each chunk of finite values gets a corrected two-pass computation, chunks merge by Chan.
 */
export class SummaryAccumulator {
  private readonly state: SeriesState = emptyState();
  private values: number[] = [];

  /** Adds one point; points must come in ascending step order, each step once. */
  push(p: StoredPoint): void {
    const s = this.state;
    s.points += 1;
    if (s.firstStep === null) s.firstStep = p.step;
    s.maxStep = p.step;
    if (s.firstTime === null || p.time < s.firstTime) s.firstTime = p.time;
    if (s.lastTime === null || p.time > s.lastTime) s.lastTime = p.time;
    if (p.value === null) return;
    s.lastStep = p.step;
    s.lastValue = p.value;
    this.values.push(p.value);
    if (this.values.length >= CHUNK) this.flush();
  }

  /** Adds every point of a page (ascending steps, after those already added). */
  pushAll(points: readonly StoredPoint[]): void {
    for (const p of points) this.push(p);
  }

  /** Returns the summary of every point added so far. */
  finish(): SeriesState {
    this.flush();
    return { ...this.state, moments: { ...this.state.moments } };
  }

  private flush(): void {
    if (this.values.length === 0) return;
    this.state.moments = mergeMoments(this.state.moments, momentsOf(this.values));
    this.values = [];
  }
}
