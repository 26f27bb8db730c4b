/**
 * What a grouped chart draws from `GET /api/runs/groups/metrics`: the x values (each
 * bucket's first step, over all groups) and per group its mean, the low and high edge of
 * its band (bands: band.ts) and the bucket at each x, null where the group has none.
 */
import type { GroupMetrics, GroupPoint } from '@server/api/schemas/groups';
import { ema } from '../charts/chart-model';
import { bandOf } from './band';
import type { BandKind } from './group-by';
import { groupId, groupLabel } from './group-label';

export interface GroupTrace {
  id: string;
  label: string;
  runCount: number;
  mean: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
  points: (GroupPoint | null)[];
}

export interface GroupChartModel {
  xs: number[];
  traces: GroupTrace[];
  /** Buckets drawn over all groups. */
  buckets: number;
}

/** The chart of `answer` with bands of `band`. */
export function groupChartModel(answer: GroupMetrics, band: BandKind): GroupChartModel {
  const steps = new Set<number>();
  for (const g of answer.groups) for (const p of g.points) steps.add(p.step);
  const xs = [...steps].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  let buckets = 0;
  const traces = answer.groups.map((g): GroupTrace => {
    const blank = () => xs.map((): number | null => null);
    const trace: GroupTrace = {
      id: groupId(answer.groupBy, g.key),
      label: groupLabel(answer.groupBy, g.key),
      runCount: g.runCount,
      mean: blank(),
      low: blank(),
      high: blank(),
      points: xs.map(() => null),
    };
    for (const p of g.points) {
      const i = at.get(p.step)!;
      const [lo, hi] = bandOf(p, band);
      trace.mean[i] = p.mean;
      trace.low[i] = lo;
      trace.high[i] = hi;
      trace.points[i] = p;
      buckets++;
    }
    return trace;
  });
  return { xs, traces, buckets };
}

/**
 * uPlot's data of a model: x, then per group its low edge, high edge and mean, each smoothed
 * by `smoothing` (the runs' charts' EMA, chart-model.ts) when above 0; on a log scale,
 * values <= 0 (which it cannot draw) as gaps.
 */
export function groupChartData(model: GroupChartModel, logScale = false, smoothing = 0): (number | null)[][] {
  const raw = model.traces.flatMap((t) => [t.low, t.high, t.mean]);
  const ys = smoothing > 0 ? raw.map((y) => ema(y, smoothing)) : raw;
  const drawable = logScale ? ys.map((y) => y.map((v) => (v !== null && v <= 0 ? null : v))) : ys;
  return [model.xs, ...drawable];
}
