/**
 * What the grouped runs table and the grouped charts ask and show beyond the groups
 * themselves: the narrowing that leaves hidden runs out of every group, a metric column's
 * cell in its own summary (last, min, max or mean), and a config column's cell.
 */
import type { GroupConfigValues, RunGroup } from '@server/api/schemas/groups';
import { formatValue } from '../format';
import type { ExtraColumn, MetricAgg } from '../runs-table/columns';
import { showConfigValue } from '../runs-table/run-cells';
import { meanPlusMinus } from './band';

/** Ids one `$nin` may list (the API's bound on $in/$nin values). */
const NIN_CHUNK = 100;
/** Hidden ids sent at most (the API counts at most 500 comparisons a filter). */
export const MAX_HIDDEN_SENT = 400;

/**
 * `filter` AND-ed with `{"id": {"$nin": ids}}` (in chunks of 100; the first MAX_HIDDEN_SENT
 * ids), so the groups leave those runs out; `filter` itself when there are none or it is
 * not JSON (the API then answers its own error for it).
 */
export function withoutRuns(filter: string | undefined, ids: readonly number[]): string | undefined {
  if (ids.length === 0) return filter;
  const sent = [...ids].sort((a, b) => a - b).slice(0, MAX_HIDDEN_SENT);
  const parts: unknown[] = [];
  for (let i = 0; i < sent.length; i += NIN_CHUNK) parts.push({ id: { $nin: sent.slice(i, i + NIN_CHUNK) } });
  if (filter?.trim()) {
    try {
      parts.unshift(JSON.parse(filter));
    } catch {
      return filter;
    }
  }
  return JSON.stringify(parts.length === 1 ? parts[0] : { $and: parts });
}

/** The answer field of each summary (GET /api/runs/groups `summaries=`). */
const SUMMARY_FIELD = {
  last: 'summary',
  min: 'summaryMin',
  max: 'summaryMax',
  mean: 'summaryMean',
} as const satisfies Record<MetricAgg, keyof RunGroup>;

/** The summaries the metric columns need, `last` first (the API's default). */
export function columnSummaries(columns: readonly ExtraColumn[]): MetricAgg[] {
  const aggs = new Set(columns.flatMap((c) => (c.kind === 'metric' ? [c.agg] : [])));
  return (['last', 'min', 'max', 'mean'] as const).filter((a) => aggs.has(a));
}

/** One cell's text and title. */
export interface CellText {
  text: string;
  title?: string;
}

/** A metric column's group cell: mean ± std of the runs' values of the column's summary. */
export function groupMetricCell(g: RunGroup, column: { name: string; agg: MetricAgg }): CellText {
  const s = g[SUMMARY_FIELD[column.agg]]?.[column.name];
  return {
    text: meanPlusMinus(s?.mean, s?.std, formatValue),
    title: s ? `n ${s.n} · min ${formatValue(s.min)} · max ${formatValue(s.max)}` : undefined,
  };
}

/**
 * A config column's group cell: the value when every run of the group holds the same, else
 * "N values" with the values in its title (all of them when the API listed all, else the first).
 */
export function groupConfigCell(values: GroupConfigValues | undefined): CellText {
  if (!values || values.count === 0) return { text: '—' };
  if (values.count === 1) {
    const text = showConfigValue(values.values[0]);
    return { text, title: text };
  }
  const listed = values.values.map(showConfigValue).join(', ');
  const title = values.values.length < values.count ? `${listed}, …` : listed;
  return { text: `${values.count.toLocaleString('en-US')} values`, title };
}
