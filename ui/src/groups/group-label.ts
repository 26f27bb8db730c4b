/**
 * A group's name from its key (`{"config.lr": 0.01, "config.optimizer": "adamw"}`): a text
 * value stands alone ("adamw"), any other is named by the last part of its field
 * ("lr=0.01"), a missing one reads "lr=none"; joined by ", ". The legend adds the count:
 * "lr=0.01, adamw · 4 runs".
 */

type KeyValue = string | number | boolean | null | undefined;

/** One field's part of a group's name. */
function part(field: string, value: KeyValue): string {
  if (typeof value === 'string') return value === '' ? `${shortName(field)}=""` : value;
  const shown = value === null || value === undefined ? 'none' : String(value);
  return `${shortName(field)}=${shown}`;
}

/** The last part of a field's dotted key ("optimizer" of "config.optimizer.name" is "name"). */
export const shortName = (field: string): string => field.split('.').pop() || field;

/** The group's name: each field of `groupBy` in order. */
export function groupLabel(groupBy: readonly string[], key: Record<string, unknown>): string {
  return groupBy.map((f) => part(f, scalarOf(key[f]))).join(', ');
}

/** "lr=0.01, adamw · 4 runs" (1 run). */
export const groupLegend = (label: string, runCount: number): string =>
  `${label} · ${runCount.toLocaleString('en-US')} ${runCount === 1 ? 'run' : 'runs'}`;

function scalarOf(v: unknown): KeyValue {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    return v;
  return JSON.stringify(v);
}

/** A stable string of a group's key (for React keys and colour choice). */
export const groupId = (groupBy: readonly string[], key: Record<string, unknown>): string =>
  JSON.stringify(groupBy.map((f) => key[f] ?? null));
