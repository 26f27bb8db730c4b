import { expect } from 'vitest';
import type { App } from '../../src/api/app-types.js';
import type { MetricPoint, Statistics } from '../../src/api/schemas/metrics.js';
import { call, type Reply } from './test-app.js';

/** The three NDJSON ingest routes. */
export type IngestKind = 'metrics' | 'logs' | 'data';

/** A Python float that prints with a decimal point (`1.0`), as `json.dumps` writes floats. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A value Python's `json.dumps` can write. */
export type PyValue = null | boolean | number | string | PyFloat | PyValue[] | { [key: string]: PyValue };

const pyNumber = (n: number, float: boolean): string => {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  const text = String(n);
  return float && Number.isInteger(n) && !text.includes('e') ? `${text}.0` : text;
};

const pyString = (s: string): string =>
  JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Returns the text Python's `json.dumps(value)` writes: `", "` and `": "` separators, bare
 * `NaN`/`Infinity`/`-Infinity` tokens, non-ASCII escaped (`ensure_ascii`), floats as `1.0`.
 */
export function pyDumps(value: PyValue): string {
  if (value === null) return 'null';
  if (value instanceof PyFloat) return pyNumber(value.value, true);
  if (typeof value === 'number') return pyNumber(value, !Number.isInteger(value));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${pyString(k)}: ${pyDumps(v)}`)
    .join(', ')}}`;
}

/** An NDJSON body as the Python client writes it: one `json.dumps` per line, a final newline. */
export const pyNdjson = (lines: readonly PyValue[]): string => `${lines.map(pyDumps).join('\n')}\n`;

/** One metrics line `{"time": ms, "step": n, "data": {...}}`. */
export const metricLine = (step: number, data: Record<string, PyValue>, time = 1_700_000_000_000 + step): PyValue => ({
  time,
  step,
  data,
});

/** Headers of an ingest request; `runId` is sent as text, exactly as given. */
export interface IngestTarget {
  runId: number | string;
  projectName?: string;
}

/** POSTs an NDJSON body to /ingest/<kind> in-process, as the Python client does. */
export async function ingest(
  app: App,
  key: string,
  kind: IngestKind,
  target: IngestTarget,
  body: string,
  contentType = 'application/x-ndjson',
): Promise<Reply> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    'content-type': contentType,
    'x-run-id': String(target.runId),
  };
  if (target.projectName !== undefined) headers['x-project-name'] = target.projectName;
  const res = await app.inject({ method: 'POST', url: `/ingest/${kind}`, headers, payload: body });
  let parsed: Reply['body'] = {};
  try {
    parsed = res.json();
  } catch {
    parsed = { raw: res.body };
  }
  return { status: res.statusCode, body: parsed, headers: res.headers };
}

/** An ingest that must succeed; returns the stored count. */
export async function ingestOk(
  app: App,
  key: string,
  kind: IngestKind,
  target: IngestTarget,
  body: string,
): Promise<number> {
  const res = await ingest(app, key, kind, target, body);
  expect(res.status, `ingest ${kind}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.count as number;
}

/** Ingests `{name: value(step)}` for every step in [from, to] in one request. */
export async function ingestSeries(
  app: App,
  key: string,
  target: IngestTarget,
  from: number,
  to: number,
  values: Record<string, (step: number) => number>,
): Promise<void> {
  const lines: PyValue[] = [];
  for (let step = from; step <= to; step++) {
    const data: Record<string, PyValue> = {};
    for (const [name, f] of Object.entries(values)) data[name] = f(step);
    lines.push(metricLine(step, data));
  }
  await ingestOk(app, key, 'metrics', target, pyNdjson(lines));
}

/** A GET that must answer 200; returns the body typed as T. */
export async function getOk<T>(app: App, key: string, url: string): Promise<T> {
  const res = await call(app, 'GET', url, key);
  expect(res.status, `GET ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as unknown as T;
}

/** A query string from defined parameters, URL-encoded. */
export const qs = (params: Record<string, string | number | undefined>): string =>
  Object.entries(params)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** GET /api/runs/metrics that must succeed. */
export async function getMetrics(
  app: App,
  key: string,
  params: Record<string, string | number | undefined>,
): Promise<MetricPoint[]> {
  return (await getOk<{ metrics: MetricPoint[] }>(app, key, `/api/runs/metrics?${qs(params)}`)).metrics;
}

/** GET /api/runs/statistics that must succeed. */
export async function getStatistics(
  app: App,
  key: string,
  params: Record<string, string | number | undefined>,
): Promise<Statistics> {
  return getOk<Statistics>(app, key, `/api/runs/statistics?${qs(params)}`);
}

/** The ISO 8601 UTC form with milliseconds docs/api.md §1.1 requires for every time. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Population mean and standard deviation of values, computed plainly. */
export function populationStats(values: readonly number[]): { mean: number; stddev: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return { mean, stddev: Math.sqrt(variance) };
}
