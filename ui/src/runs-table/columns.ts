/** The columns a person adds to the runs table: config keys and metric summaries. */

/** Which summary of a metric a column shows (of the run's finite points). */
export type MetricAgg = 'last' | 'min' | 'max' | 'mean';
export const METRIC_AGGS: readonly MetricAgg[] = ['last', 'min', 'max', 'mean'];

/** The API's sort field prefix of each summary (docs/api.md §9). */
const SORT_PREFIX: Record<MetricAgg, string> = {
  last: 'summary_metrics',
  min: 'summary_min',
  max: 'summary_max',
  mean: 'summary_mean',
};

export type ExtraColumn = { kind: 'config'; key: string } | { kind: 'metric'; name: string; agg: MetricAgg };

/** The most metrics one list request may summarise (`metrics=`). */
export const MAX_METRIC_COLUMNS = 20;

/** `config:<key>` or `metric:<agg>:<name>`, the form kept in the page URL (`col=`). */
export function encodeColumn(column: ExtraColumn): string {
  return column.kind === 'config' ? `config:${column.key}` : `metric:${column.agg}:${column.name}`;
}

/** The column of a `col=` value, or undefined for anything else. */
export function decodeColumn(text: string): ExtraColumn | undefined {
  if (text.startsWith('config:') && text.length > 7) return { kind: 'config', key: text.slice(7) };
  const m = /^metric:(last|min|max|mean):(.+)$/s.exec(text);
  return m ? { kind: 'metric', agg: m[1] as MetricAgg, name: m[2]! } : undefined;
}

/** A column's header text. */
export const columnLabel = (column: ExtraColumn): string =>
  column.kind === 'config' ? column.key : `${column.name} (${column.agg})`;

/**
 * The `sort` field that orders by this column: `config.<key>`, or a metric's summary
 * (`summary_metrics.<name>` for the last value, `summary_min.<name>`, `summary_max.<name>`,
 * `summary_mean.<name>`).
 */
export function columnSortField(column: ExtraColumn): string {
  if (column.kind === 'config') return `config.${column.key}`;
  return `${SORT_PREFIX[column.agg]}.${column.name}`;
}

/** The distinct metric names the columns need summarised. */
export const columnMetrics = (columns: readonly ExtraColumn[]): string[] => [
  ...new Set(columns.flatMap((c) => (c.kind === 'metric' ? [c.name] : []))),
];
