/** The columns a person adds to the runs table: config keys and metric summaries. */

/** Which summary of a metric a column shows. */
export type MetricAgg = 'last' | 'min' | 'max';
export const METRIC_AGGS: readonly MetricAgg[] = ['last', 'min', 'max'];

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
  const m = /^metric:(last|min|max):(.+)$/s.exec(text);
  return m ? { kind: 'metric', agg: m[1] as MetricAgg, name: m[2]! } : undefined;
}

/** A column's header text. */
export const columnLabel = (column: ExtraColumn): string =>
  column.kind === 'config' ? column.key : `${column.name} (${column.agg})`;

/**
 * The `sort` field that orders by this column, if the API can: config keys and a metric's
 * last value (`summary_metrics.<name>`). Min and max are shown but not sortable.
 */
export function columnSortField(column: ExtraColumn): string | undefined {
  if (column.kind === 'config') return `config.${column.key}`;
  return column.agg === 'last' ? `summary_metrics.${column.name}` : undefined;
}

/** The distinct metric names the columns need summarised. */
export const columnMetrics = (columns: readonly ExtraColumn[]): string[] => [
  ...new Set(columns.flatMap((c) => (c.kind === 'metric' ? [c.name] : []))),
];
