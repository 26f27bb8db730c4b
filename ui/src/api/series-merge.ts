/**
 * Pure steps of a live chart's poll: which runs' series are read whole and which only from
 * their last step (grouped so that runs close in steps share one `GET /api/runs/series`), and
 * how a tail joins the points already held.
 */
import type { RunSeries } from '@server/api/schemas/metrics';
import type { MetricSeries } from './metric-queries';

/** A `GET /api/runs/series` answer's series as the charts hold it. */
export function fromColumns(s: RunSeries): MetricSeries {
  const flags = s.values.map((v, i) => (v === null ? (s.flags?.[i] ?? 'NaN') : undefined));
  return { steps: s.steps, times: s.times, values: s.values, flags, appended: 0, total: s.total };
}

/** Runs whose tails one request reads: from `from` (the lowest of their last steps). */
export interface TailGroup {
  from: number;
  runIds: number[];
}

/**
 * Groups runs by their last held step, ascending: a group starts at its lowest last step and
 * takes the next runs while theirs are at most `span` steps further, so one request re-reads
 * at most `span` steps a run already has. Returns the groups in ascending `from`.
 */
export function tailGroups(runs: readonly { runId: number; last: number }[], span: number): TailGroup[] {
  const sorted = [...runs].sort((a, b) => a.last - b.last || a.runId - b.runId);
  const groups: TailGroup[] = [];
  for (const r of sorted) {
    const group = groups[groups.length - 1];
    if (group && r.last - group.from <= span) group.runIds.push(r.runId);
    else groups.push({ from: r.last, runIds: [r.runId] });
  }
  for (const g of groups) g.runIds.sort((a, b) => a - b);
  return groups;
}

/**
 * `prev` with a tail read from `from` (at most prev's last step) joined on: prev's points
 * before its last step stay, the tail's points from that step on replace the rest (that step
 * is read again: it may have been re-logged, and `sys/` series log many samples at one step).
 * The total follows exactly while one point per step is held at the last step. Returns `prev`
 * itself when nothing changed (nothing redraws), and null when the tail was sampled and starts
 * before prev's last step (its points past that step cannot be counted: read the series whole).
 */
export function mergeTail(prev: MetricSeries, tail: MetricSeries, from: number): MetricSeries | null {
  const last = prev.steps[prev.steps.length - 1];
  const cut = last === undefined ? from : Math.max(from, last);
  let start = 0;
  while (start < tail.steps.length && tail.steps[start]! < cut) start++;
  // A sampled answer keeps its first point: none before `cut` means none was left out there.
  let tailTotal = tail.total;
  if (start > 0) {
    if (tail.total > tail.steps.length) return null;
    tailTotal = tail.steps.length - start;
  }
  let keep = prev.steps.length;
  while (keep > 0 && prev.steps[keep - 1]! >= cut) keep--;
  const replaced = prev.steps.length - keep;
  const added = tail.steps.length - start;
  const total = keep === 0 ? tailTotal : prev.total - replaced + tailTotal;
  if (added === replaced && total === prev.total) {
    let same = true;
    for (let i = 0; same && i < added; i++) {
      same =
        tail.steps[start + i] === prev.steps[keep + i] &&
        tail.times[start + i] === prev.times[keep + i] &&
        tail.values[start + i] === prev.values[keep + i];
    }
    if (same) return prev;
  }
  return {
    steps: prev.steps.slice(0, keep).concat(tail.steps.slice(start)),
    times: prev.times.slice(0, keep).concat(tail.times.slice(start)),
    values: prev.values.slice(0, keep).concat(tail.values.slice(start)),
    flags: prev.flags.slice(0, keep).concat(tail.flags.slice(start)),
    appended: prev.appended + Math.max(0, added - replaced),
    total,
  };
}
