/**
 * Names of the fields run search filters and sorts on (with the aliases the W&B and pluto
 * clients use), and the `sort` parameter.
 */
import { badRequest } from '../errors.js';
import type { JsonColumn, MetricAgg, SearchField, SearchSort } from './run-search.js';

const PLAIN: Record<string, SearchField> = {
  status: { kind: 'status' },
  state: { kind: 'status' },
  name: { kind: 'name' },
  displayName: { kind: 'name' },
  display_name: { kind: 'name' },
  tags: { kind: 'tags' },
  createdAt: { kind: 'time', column: 'created_at' },
  created_at: { kind: 'time', column: 'created_at' },
  updatedAt: { kind: 'time', column: 'updated_at' },
  updated_at: { kind: 'time', column: 'updated_at' },
  heartbeatAt: { kind: 'time', column: 'last_seen_at' },
  heartbeat_at: { kind: 'time', column: 'last_seen_at' },
  id: { kind: 'runId' },
  forkedFromRunId: { kind: 'forkParent' },
  createdBy: { kind: 'createdBy' },
};

const JSON_PREFIXES: Record<string, JsonColumn> = {
  config: 'config',
  systemMetadata: 'system_metadata',
  system_metadata: 'system_metadata',
};
const METRIC_PREFIXES: Record<string, MetricAgg> = {
  summaryMetrics: 'last',
  summary_metrics: 'last',
  summaryMin: 'min',
  summary_min: 'min',
  summaryMax: 'max',
  summary_max: 'max',
  summaryMean: 'mean',
  summary_mean: 'mean',
};

/** Longest field name accepted. */
const MAX_FIELD_LENGTH = 1024;

/** The field names accepted, for error messages. */
export const FIELD_NAMES =
  'id (run id), status (state), name (displayName, display_name), tags, createdAt (created_at), updatedAt (updated_at), ' +
  'heartbeat_at (heartbeatAt), forkedFromRunId, createdBy (user id or name), config.<key>, systemMetadata.<key>, summary_metrics.<metric> (summaryMetrics.<metric>, ' +
  'the last value), summary_min.<metric>, summary_max.<metric>, summary_mean.<metric> (summaryMin.<metric>, …)';

/** A dotted key path into a JSON column; a trailing `.value` (W&B's config wrapper) is ignored. */
function jsonPath(name: string, rest: string): string[] {
  const path = rest.split('.');
  if (path.length > 1 && path[path.length - 1] === 'value') path.pop();
  if (path.some((p) => p === '')) throw badRequest(`field ${JSON.stringify(name)} has an empty key in its path`);
  if (path.length > 32) throw badRequest(`field ${JSON.stringify(name)} has more than 32 keys in its path`);
  if (path.some((p) => p.includes('"') || p.includes('\\'))) {
    throw badRequest(`field ${JSON.stringify(name)}: keys with " or \\ cannot be searched`);
  }
  return path;
}

/** The field a filter key or sort names. Throws BAD_REQUEST listing the accepted fields. */
export function resolveField(name: string): SearchField {
  if (name.length > MAX_FIELD_LENGTH) throw badRequest(`a field name is longer than ${MAX_FIELD_LENGTH} characters`);
  const plain = Object.hasOwn(PLAIN, name) ? PLAIN[name] : undefined;
  if (plain) return plain;
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? '' : name.slice(dot + 1);
  if (Object.hasOwn(JSON_PREFIXES, head) && rest !== '') {
    return { kind: 'json', column: JSON_PREFIXES[head]!, path: jsonPath(name, rest) };
  }
  const agg = Object.hasOwn(METRIC_PREFIXES, head) ? METRIC_PREFIXES[head] : undefined;
  if (agg && rest !== '') return { kind: 'metric', name: rest, agg };
  throw badRequest(`unknown field ${JSON.stringify(name)}; fields are ${FIELD_NAMES}`);
}

/** The sort fields accepted, for error messages. */
export const SORT_NAMES =
  'createdAt, updatedAt, name, status, heartbeat_at (snake_case spellings too), forkedFromRunId, config.<key>, ' +
  'systemMetadata.<key>, summary_metrics.<metric> (last value), summary_min.<metric>, summary_max.<metric>, ' +
  'summary_mean.<metric>, each with an optional - (descending) or + prefix';

/**
 * Parses `sort`: a field with an optional `-` (descending) or `+` prefix; default
 * `-createdAt`. Throws BAD_REQUEST listing the accepted fields (tags cannot be sorted on).
 */
export function parseSort(text: string | undefined): SearchSort {
  const raw = (text ?? '').trim();
  if (raw === '') return { field: { kind: 'time', column: 'created_at' }, descending: true };
  const descending = raw.startsWith('-');
  const name = raw.startsWith('-') || raw.startsWith('+') ? raw.slice(1) : raw;
  let field: SearchField;
  try {
    field = resolveField(name);
  } catch {
    throw badRequest(`cannot sort by ${JSON.stringify(name)}; sort by ${SORT_NAMES}`);
  }
  // The id is a filter field only; sorting by it stays refused as before it was one.
  if (field.kind === 'runId') throw badRequest(`cannot sort by ${JSON.stringify(name)}; sort by ${SORT_NAMES}`);
  if (field.kind === 'tags' || field.kind === 'createdBy') {
    throw badRequest(`cannot sort by ${field.kind}; sort by ${SORT_NAMES}`);
  }
  return { field, descending };
}
