/** A grouped chart's CSV: one row per group and bucket, as `GET /api/runs/groups/metrics` gave them. */
import { csvField } from '../charts/chart-export';
import type { GroupChartModel } from './group-chart-model';

const HEAD = ['group', 'step', 'stepEnd', 'n', 'mean', 'std', 'stderr', 'min', 'max'];

/** The model's buckets as CSV: group key ("lr=0.01, adamw"), then the bucket's numbers (std blank when null). */
export function groupChartCsv(model: GroupChartModel): string {
  const rows = [HEAD.join(',')];
  for (const t of model.traces) {
    for (const p of t.points) {
      if (!p) continue;
      const num = (v: number | null) => (v === null ? '' : String(v));
      rows.push(
        [csvField(t.label), p.step, p.stepEnd, p.n, p.mean, num(p.std), num(p.stderr), p.min, p.max]
          .map(String)
          .join(','),
      );
    }
  }
  return rows.join('\n') + '\n';
}
