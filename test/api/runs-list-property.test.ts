/**
 * Differential property test of run search: random runs, random filters and sorts, the
 * answer of GET /api/runs/list compared with a plain in-memory evaluator of the same
 * language written here. Runs on SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestSeries } from '../helpers/ingest-api.js';
import { createRun, setStatus } from '../helpers/run-api.js';
import { call, makeTestApp } from '../helpers/test-app.js';

const t = await makeTestApp();
afterAll(() => t.close());

const T0 = Date.UTC(2026, 1, 1);
const STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED'];
const NAMES = ['a', 'b', 'ab', 'B', 'ba_', 'x%'];
const TAGS = ['x', 'y', 'z'];
const JSON_VALUES = [-1, 0, 1, 2.5, 'p', 'q', 'P', true, false, null];
type Json = number | string | boolean | null;

interface Spec {
  name: string;
  status: string;
  tags: string[];
  createdAt: number;
  config: { a?: Json; b?: Json };
  /** Points of metric m at steps 0, 1, …; undefined = none logged. */
  m: number[] | undefined;
}
interface Stored extends Spec {
  id: number;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  name: fc.constantFrom(...NAMES),
  status: fc.constantFrom(...STATUSES),
  tags: fc.subarray(TAGS),
  createdAt: fc.integer({ min: 0, max: 3 }).map((k) => T0 + k * 1000),
  config: fc.record({ a: fc.constantFrom(...JSON_VALUES), b: fc.constantFrom(...JSON_VALUES) }, { requiredKeys: [] }),
  m: fc.option(fc.array(fc.constantFrom(-1, 0, 1, 2, NaN, Infinity), { minLength: 1, maxLength: 3 }), {
    nil: undefined,
  }),
});

const METRIC_FIELDS = ['summary_metrics.m', 'summary_min.m', 'summary_max.m', 'summary_mean.m'] as const;
type MetricField = (typeof METRIC_FIELDS)[number];
type Field = 'id' | 'status' | 'name' | 'tags' | 'createdAt' | 'config.a' | 'config.b' | MetricField;
const isMetric = (field: string): field is MetricField => (METRIC_FIELDS as readonly string[]).includes(field);
const TEXT_FIELDS: Field[] = ['status', 'name', 'tags', 'config.a', 'config.b'];

/** Operands that each field accepts. */
function operandArb(field: Field, range: boolean): fc.Arbitrary<Json> {
  switch (field) {
    case 'id':
      // An offset from the project's first run id (-1 and 8 match none); see withIds.
      return range ? fc.integer({ min: -1, max: 8 }) : fc.option(fc.integer({ min: -1, max: 8 }), { nil: null });
    case 'status':
      return fc.constantFrom(...STATUSES, 'running', 'Failed');
    case 'name':
      return fc.constantFrom(...NAMES, 'c');
    case 'tags':
      return fc.constantFrom(...TAGS, 'w');
    case 'createdAt':
      return fc.integer({ min: -1, max: 4 }).map((k) => T0 + k * 1000);
    case 'summary_metrics.m':
    case 'summary_min.m':
    case 'summary_max.m':
    case 'summary_mean.m':
      return range ? fc.constantFrom(-1, 0, 0.5, 1, 2) : fc.constantFrom(-1, 0, 0.5, 1, 2, null);
    default:
      return range ? fc.constantFrom(-1, 0, 1, 2.5, 'p', 'q', 'P') : fc.constantFrom(...JSON_VALUES);
  }
}

const REGEXES = ['^a', 'b$', 'a.', '[xy]', '^(a|b)', 'A', 'p|q', '^.$', 'run'];

const leafArb: fc.Arbitrary<Record<string, unknown>> = fc
  .constantFrom<Field>('id', 'status', 'name', 'tags', 'createdAt', 'config.a', 'config.b', ...METRIC_FIELDS)
  .chain((field) => {
    const ops: fc.Arbitrary<unknown>[] = [
      operandArb(field, false),
      operandArb(field, false).map((v) => ({ $eq: v })),
      operandArb(field, false).map((v) => ({ $ne: v })),
      fc.constantFrom('$gt', '$gte', '$lt', '$lte').chain((op) => operandArb(field, true).map((v) => ({ [op]: v }))),
      fc.array(operandArb(field, false), { maxLength: 3 }).map((vs) => ({ $in: vs })),
      fc.array(operandArb(field, false), { maxLength: 3 }).map((vs) => ({ $nin: vs })),
      fc.boolean().map((b) => ({ $exists: b })),
      operandArb(field, true).map((v) => ({ $not: { $gt: v } })),
    ];
    if (TEXT_FIELDS.includes(field)) {
      ops.push(
        fc
          .tuple(fc.constantFrom(...REGEXES), fc.boolean())
          .map(([re, i]) => (i ? { $regex: re, $options: 'i' } : { $regex: re })),
      );
    }
    return fc.oneof(...ops).map((cond) => ({ [field]: cond }));
  });

const filterArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ f: Record<string, unknown> }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((fs) => ({ $and: fs })),
    fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((fs) => ({ $or: fs })),
    tie('f').map((f) => ({ $not: f })),
    fc.tuple(leafArb, leafArb).map(([a, b]) => ({ ...a, ...b })),
  ),
})).f;

// ---- the in-memory evaluator ----

/** A metric summary of the finite points: the last, min, max or mean; undefined without one. */
function metricValue(points: number[] | undefined, field: MetricField): number | undefined {
  const finite = (points ?? []).filter((v) => Number.isFinite(v));
  if (finite.length === 0) return undefined;
  if (field === 'summary_min.m') return Math.min(...finite);
  if (field === 'summary_max.m') return Math.max(...finite);
  if (field === 'summary_mean.m') return finite.reduce((a, b) => a + b, 0) / finite.length;
  return finite[finite.length - 1];
}

/** The value of a field of a run: undefined when missing; tags are an array. */
function valueOf(r: Stored, field: string): Json | string[] | undefined {
  if (field === 'id') return r.id;
  if (field === 'status') return r.status;
  if (field === 'name') return r.name;
  if (field === 'tags') return r.tags;
  if (field === 'createdAt') return r.createdAt;
  if (isMetric(field)) return metricValue(r.m, field);
  const key = field.slice('config.'.length) as 'a' | 'b';
  return key in r.config ? r.config[key] : undefined;
}

function test1(v: Json | undefined, op: string, x: unknown, field: string): boolean {
  const norm = (y: unknown) => (field === 'status' && typeof y === 'string' ? y.toUpperCase() : y);
  switch (op) {
    case '$eq':
      return x === null ? v === undefined || v === null : v === norm(x);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const y = norm(x);
      if (v === undefined || v === null || typeof v !== typeof y || typeof y === 'boolean') return false;
      const [a, b] = [v as number | string, y as number | string];
      return op === '$gt' ? a > b : op === '$gte' ? a >= b : op === '$lt' ? a < b : a <= b;
    }
    case '$in':
      return (x as unknown[]).some((y) => test1(v, '$eq', y, field));
    case '$regex':
      return typeof v === 'string' && new RegExp(x as string, field === 'status' ? 'i' : '').test(v);
    default:
      throw new Error(op);
  }
}

function fieldMatches(r: Stored, field: string, cond: unknown): boolean {
  const isOps = cond !== null && typeof cond === 'object' && !Array.isArray(cond);
  const ops = (isOps ? cond : { $eq: cond }) as Record<string, unknown>;
  const v = valueOf(r, field);
  return Object.entries(ops).every(([op, x]) => {
    if (op === '$options') return true;
    if (op === '$not') return !fieldMatches(r, field, x);
    if (op === '$ne') return !fieldMatches(r, field, { $eq: x });
    if (op === '$nin') return !fieldMatches(r, field, { $in: x });
    if (op === '$exists') return (Array.isArray(v) ? v.length > 0 : v !== undefined) === x;
    if (op === '$regex' && ops.$options === 'i') {
      return fieldMatches(r, field, { $regex: `(?i)${x as string}` });
    }
    if (op === '$regex' && (x as string).startsWith('(?i)')) {
      const re = new RegExp((x as string).slice(4), 'i');
      return Array.isArray(v) ? v.some((y) => re.test(y)) : typeof v === 'string' && re.test(v);
    }
    if (!Array.isArray(v)) return test1(v, op, x, field);
    if (op === '$eq' && x === null) return v.length === 0;
    if (op === '$in' && (x as unknown[]).includes(null) && v.length === 0) return true;
    return v.some((tag) => test1(tag, op, x, field));
  });
}

function matches(r: Stored, f: Record<string, unknown>): boolean {
  return Object.entries(f).every(([k, v]) => {
    if (k === '$and') return (v as Record<string, unknown>[]).every((g) => matches(r, g));
    if (k === '$or') return (v as Record<string, unknown>[]).some((g) => matches(r, g));
    if (k === '$not') return !matches(r, v as Record<string, unknown>);
    return fieldMatches(r, k, v);
  });
}

/** Sort key: [missing, type rank, value]; numbers, then strings, then booleans. */
function sortKey(r: Stored, field: string): [number, number, number | string] {
  const v = valueOf(r, field) as Json | undefined;
  if (typeof v === 'number') return [0, 0, v];
  if (typeof v === 'string') return [0, 1, v];
  if (typeof v === 'boolean') return [0, 2, v ? 1 : 0];
  return [1, 0, 0];
}

function expectedOrder(runs: Stored[], filter: Record<string, unknown>, sort: string): number[] {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  const sign = desc ? -1 : 1;
  return runs
    .filter((r) => matches(r, filter))
    .sort((x, y) => {
      const [a, b] = [sortKey(x, field), sortKey(y, field)];
      if (a[0] !== b[0]) return a[0] - b[0];
      if (a[1] !== b[1]) return sign * (a[1] - b[1]);
      if (a[2] !== b[2]) return sign * (a[2] < b[2] ? -1 : 1);
      return sign * (x.id - y.id);
    })
    .map((r) => r.id);
}

/** The filter with each `id` operand (an offset, see operandArb) turned into a run id: the first id + offset. */
function withIds(f: unknown, first: number, inId = false): unknown {
  if (inId && typeof f === 'number') return first + f;
  if (Array.isArray(f)) return f.map((x) => withIds(x, first, inId));
  if (f === null || typeof f !== 'object') return f;
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, withIds(v, first, inId || k === 'id')]));
}

// ---- the property ----

let project = 0;
async function load(specs: Spec[]): Promise<{ projectName: string; runs: Stored[] }> {
  const projectName = `prop-${project++}`;
  const runs: Stored[] = [];
  for (const s of specs) {
    const ref = await createRun(t.app, t.key, {
      runName: s.name,
      projectName,
      tags: s.tags,
      createdAt: s.createdAt,
      config: JSON.stringify(s.config),
    });
    if (s.status !== 'RUNNING') await setStatus(t.app, t.key, ref.runId, s.status);
    if (s.m !== undefined) {
      const m = s.m;
      await ingestSeries(t.app, t.key, { runId: ref.runId, projectName }, 0, m.length - 1, { m: (step) => m[step]! });
    }
    runs.push({ ...s, id: ref.runId });
  }
  return { projectName, runs };
}

const SORTS = ['name', 'status', 'createdAt', 'config.a', 'config.b', ...METRIC_FIELDS].flatMap((s) => [s, `-${s}`]);

describe('GET /api/runs/list against an in-memory evaluator', () => {
  it('lists exactly the runs the evaluator matches, in its order, for random runs, filters and sorts', async () => {
    let asked = 0;
    let discriminating = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(filterArb, fc.constantFrom(...SORTS), fc.integer({ min: 0, max: 3 })), {
          minLength: 20,
          maxLength: 20,
        }),
        async (specs, queries) => {
          const { projectName, runs } = await load(specs);
          for (const [offsets, sort, offset] of queries) {
            const filter = withIds(offsets, runs[0]!.id) as Record<string, unknown>;
            const qs = new URLSearchParams({ projectName, filter: JSON.stringify(filter), sort, limit: '3' });
            qs.set('offset', String(offset));
            const res = await call(t.app, 'GET', `/api/runs/list?${qs}`, t.key);
            const label = `${JSON.stringify(filter)} sort=${sort} offset=${offset}: ${JSON.stringify(res.body)}`;
            expect(res.status, label).toBe(200);
            const expected = expectedOrder(runs, filter, sort);
            asked++;
            if (expected.length > 0 && expected.length < runs.length) discriminating++;
            expect(
              (res.body.runs as { id: number }[]).map((r) => r.id),
              label,
            ).toEqual(expected.slice(offset, offset + 3));
            expect(res.body.total, label).toBe(expected.length);
          }
        },
      ),
      { numRuns: 15, seed: Number(process.env.PROPERTY_SEED ?? 20261123) },
    );
    // The generated filters must tell runs apart, not only match all or none.
    expect(discriminating).toBeGreaterThan(asked / 5);
  });
});
