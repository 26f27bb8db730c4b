/**
 * Sampled series as they cross from a bucket thread (bucket-worker.ts): four Float64 per point
 * (step, time, value, flag index) in one moved array instead of an object per point cloned.
 */
import type { MetricPoint } from '../../domain/types.js';
import type { SampledSeries } from './worker-protocol.js';

const FLAGS: readonly MetricPoint['flag'][] = [null, 'NaN', 'Infinity', '-Infinity'];

/** Returns the series packed, in their order. */
export function packSeries(series: readonly { logName: string; points: readonly MetricPoint[] }[]): SampledSeries[] {
  return series.map(({ logName, points }) => {
    const cols = new Float64Array(4 * points.length);
    let k = 0;
    for (const p of points) {
      cols[k++] = p.step;
      cols[k++] = p.time;
      cols[k++] = p.value ?? NaN;
      cols[k++] = FLAGS.indexOf(p.flag);
    }
    return { logName, cols };
  });
}

/** Returns the points packSeries packed, as they were. */
export function unpackSeries(series: readonly SampledSeries[]): { logName: string; points: MetricPoint[] }[] {
  return series.map(({ logName, cols }) => {
    const points: MetricPoint[] = new Array(cols.length / 4);
    for (let i = 0, k = 0; k < cols.length; i++, k += 4) {
      const flag = FLAGS[cols[k + 3]!] ?? null;
      points[i] = { step: cols[k]!, time: cols[k + 1]!, value: flag === null ? cols[k + 2]! : null, flag };
    }
    return { logName, points };
  });
}
