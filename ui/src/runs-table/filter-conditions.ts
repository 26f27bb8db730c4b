/**
 * The condition builder's rows and the `filter` JSON of `GET /api/runs/list` they compile to:
 * `{"summary_metrics.train/loss": {"$lt": 0.5}}`, several AND-ed with `$and`. A filter the
 * builder did not write (typed or shared by hand) is kept as it is and shown as JSON.
 */

export type ConditionOp = '$lt' | '$lte' | '$gt' | '$gte' | '$eq' | '$ne' | '$regex' | '$exists';
export type ConditionValue = string | number | boolean;

export interface Condition {
  kind: 'metric' | 'config';
  /** The metric name or the dotted config key. */
  name: string;
  op: ConditionOp;
  value: ConditionValue;
}

export const OP_LABELS: Record<ConditionOp, string> = {
  $lt: '<',
  $lte: '≤',
  $gt: '>',
  $gte: '≥',
  $eq: '=',
  $ne: '≠',
  $regex: 'matches',
  $exists: 'is set',
};

/** Operators a metric (a number) accepts. */
export const METRIC_OPS: readonly ConditionOp[] = ['$lt', '$lte', '$gt', '$gte', '$eq', '$ne', '$exists'];
/** Operators a config value accepts. */
export const CONFIG_OPS: readonly ConditionOp[] = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$regex', '$exists'];

const OPS = new Set<string>(Object.keys(OP_LABELS));

const fieldOf = (c: Condition): string => (c.kind === 'metric' ? `summary_metrics.${c.name}` : `config.${c.name}`);

/** A typed value as the filter wants it: numbers as numbers, true/false as booleans. */
export function parseValue(text: string): ConditionValue {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return text;
}

/** "metric train/loss last < 0.5", as a chip shows it. */
export function describeCondition(c: Condition): string {
  const subject = c.kind === 'metric' ? `metric ${c.name} last` : `config ${c.name}`;
  if (c.op === '$exists') return `${subject} ${c.value === false ? 'is not set' : 'is set'}`;
  return `${subject} ${OP_LABELS[c.op]} ${typeof c.value === 'string' ? JSON.stringify(c.value) : String(c.value)}`;
}

/** The `filter` JSON of the conditions ('' for none). */
export function compileFilter(conditions: readonly Condition[]): string {
  const parts = conditions.map((c) => ({ [fieldOf(c)]: { [c.op]: c.value } }));
  if (parts.length === 0) return '';
  return JSON.stringify(parts.length === 1 ? parts[0] : { $and: parts });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function leaf(part: unknown): Condition | undefined {
  if (!isObject(part)) return undefined;
  const entries = Object.entries(part);
  if (entries.length !== 1) return undefined;
  const [field, ops] = entries[0]!;
  if (!isObject(ops)) return undefined;
  const opEntries = Object.entries(ops);
  if (opEntries.length !== 1) return undefined;
  const [op, value] = opEntries[0]!;
  if (!OPS.has(op) || !(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    return undefined;
  }
  if (field.startsWith('summary_metrics.') && field.length > 16) {
    return { kind: 'metric', name: field.slice(16), op: op as ConditionOp, value };
  }
  if (field.startsWith('config.') && field.length > 7) {
    return { kind: 'config', name: field.slice(7), op: op as ConditionOp, value };
  }
  return undefined;
}

/**
 * The builder's conditions for a `filter` from the URL, or `undefined` when the filter is not
 * one the builder writes (it is then shown and edited as JSON).
 */
export function readConditions(filter: string): Condition[] | undefined {
  if (filter.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(filter);
  } catch {
    return undefined;
  }
  if (isObject(value) && Object.keys(value).length === 1 && Array.isArray(value.$and)) {
    const conditions = value.$and.map(leaf);
    return conditions.every((c): c is Condition => c !== undefined) ? conditions : undefined;
  }
  const single = leaf(value);
  return single ? [single] : undefined;
}
