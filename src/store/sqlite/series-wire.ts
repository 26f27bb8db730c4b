/**
 * Read series as they cross from a search thread to the main thread: per series its logName
 * and one Float64Array of (step, time, value, flag) per point, moved rather than cloned
 * field by field. A non-finite value (stored as null with its kind in `flag`) crosses as
 * NaN with the flag's code; a finite value with code 0.
 */
import type { MetricPoint } from '../../domain/types.js';

/** One series of a read in its wire form. */
export interface WireSeries {
  logName: string;
  cols: Float64Array;
}

const FLAGS = [null, 'NaN', 'Infinity', '-Infinity'] as const;

/** The series packed for the crossing (the arrays' buffers go in the transfer list). */
export function toWire(series: readonly { logName: string; points: readonly MetricPoint[] }[]): WireSeries[] {
  return series.map(({ logName, points }) => {
    const cols = new Float64Array(4 * points.length);
    let k = 0;
    for (const p of points) {
      cols[k++] = p.step;
      cols[k++] = p.time;
      cols[k++] = p.value ?? Number.NaN;
      cols[k++] = FLAGS.indexOf(p.flag);
    }
    return { logName, cols };
  });
}

/** The series as toWire was given them. */
export function fromWire(series: readonly WireSeries[]): { logName: string; points: MetricPoint[] }[] {
  return series.map(({ logName, cols }) => {
    const points: MetricPoint[] = new Array<MetricPoint>(cols.length / 4);
    for (let i = 0, k = 0; k < cols.length; i++, k += 4) {
      const flag = FLAGS[cols[k + 3]!]!;
      points[i] = { step: cols[k]!, time: cols[k + 1]!, value: flag === null ? cols[k + 2]! : null, flag };
    }
    return { logName, points };
  });
}
