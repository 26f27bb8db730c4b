/**
 * GET /api/runs/list: every operator on every field kind, combinations, sorting with ties
 * and missing keys, paging, every 400, tenancy, metric summaries, hostile regexes. Runs on
 * SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app.js';
import { makeTestApp } from '../helpers/test-app.js';
import { ingestSeries } from '../helpers/ingest-api.js';
import { createRun, expectError, setStatus, sleep, tenAtATime } from '../helpers/run-api.js';

const t = await makeTestApp();
const T0 = Date.UTC(2026, 0, 1);
const ids = new Map<string, number>();
const nameOf = new Map<number, string>();

/** The fixture: five runs of project `search` (listed by name: Beta_%x, alpha-1, alpha-2, delta, gamma). */
const RUNS = [
  {
    name: 'alpha-1',
    status: 'RUNNING',
    tags: ['a', 'b'],
    createdAt: T0 + 1000,
    config: { lr: 0.01, opt: 'adam', flag: true, nested: { depth: 3 } },
    systemMetadata: { gpu: 'A100', n: 8 },
    metrics: { loss: 0.5, acc: 0.9 },
  },
  {
    name: 'alpha-2',
    status: 'COMPLETED',
    tags: ['b'],
    createdAt: T0 + 2000,
    config: { lr: 0.001, opt: 'sgd', flag: false, nested: { depth: 5 } },
    systemMetadata: { gpu: 'H100' },
    metrics: { loss: 0.3 },
  },
  {
    name: 'Beta_%x',
    status: 'FAILED',
    tags: [],
    createdAt: T0 + 3000,
    config: { lr: '0.01', opt: 'Adam', nullable: null },
    systemMetadata: null,
    metrics: {},
  },
  {
    name: 'gamma',
    status: 'COMPLETED',
    tags: ['c'],
    createdAt: T0 + 3000,
    config: null,
    systemMetadata: null,
    metrics: { loss: 0.3, acc: 0.1 },
  },
  {
    name: 'delta',
    status: 'CANCELLED',
    tags: ['a'],
    createdAt: T0 + 5000,
    config: { lr: 0.1, opt: 'adamw', flag: true },
    systemMetadata: null,
    metrics: { loss: NaN },
  },
] as const;
const ALL = ['Beta_%x', 'alpha-1', 'alpha-2', 'delta', 'gamma'];
let beforeTrigger = 0;

beforeAll(async () => {
  for (const r of RUNS) {
    const ref = await createRun(t.app, t.key, {
      runName: r.name,
      projectName: 'search',
      tags: r.tags,
      createdAt: r.createdAt,
      updatedAt: r.createdAt,
      config: r.config === null ? null : JSON.stringify(r.config),
      systemMetadata: r.systemMetadata === null ? null : JSON.stringify(r.systemMetadata),
    });
    ids.set(r.name, ref.runId);
    nameOf.set(ref.runId, r.name);
    if (r.status !== 'RUNNING') await setStatus(t.app, t.key, ref.runId, r.status);
    const values = Object.fromEntries(Object.entries(r.metrics).map(([k, v]) => [k, () => v]));
    if (Object.keys(values).length > 0) {
      await ingestSeries(t.app, t.key, { runId: ref.runId, projectName: 'search' }, 0, 0, values);
    }
  }
  // Noise that must never be listed: another project of acme, and project `search` of rival.
  await createRun(t.app, t.key, { runName: 'alpha-other-project', projectName: 'other', tags: ['a'] });
  await createRun(t.app, t.otherKey, { runName: 'alpha-rival', projectName: 'search', tags: ['a', 'b', 'c'] });
  await sleep(5);
  beforeTrigger = Date.now();
  await sleep(5);
  expect((await call(t.app, 'POST', '/api/runs/trigger', t.key, { runId: ids.get('Beta_%x') })).status).toBe(200);
});
afterAll(() => t.close());

async function list(query: Record<string, string | number>, key = t.key) {
  const qs = new URLSearchParams(Object.entries({ projectName: 'search', ...query }).map(([k, v]) => [k, String(v)]));
  return call(t.app, 'GET', `/api/runs/list?${qs}`, key);
}

async function names(query: Record<string, string | number>): Promise<string[]> {
  const res = await list(query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const runs = res.body.runs as { id: number; name: string }[];
  expect(res.body.total).toBeGreaterThanOrEqual(runs.length);
  return runs.map((r) => r.name);
}

/** Filter cases: the filter and the names it matches, in name order. */
const FILTERS: [string, unknown, string[]][] = [
  ['an empty filter matches every run', {}, ALL],
  ['status equality ignores case', { status: 'completed' }, ['alpha-2', 'gamma']],
  ['state is an alias of status, and $ne excludes', { state: { $ne: 'COMPLETED' } }, ['Beta_%x', 'alpha-1', 'delta']],
  ['status $in', { status: { $in: ['failed', 'Cancelled'] } }, ['Beta_%x', 'delta']],
  ['status $nin', { status: { $nin: ['RUNNING'] } }, ['Beta_%x', 'alpha-2', 'delta', 'gamma']],
  ['status $regex is case-insensitive', { status: { $regex: '^comp' } }, ['alpha-2', 'gamma']],
  ['status $gt compares code points', { status: { $gt: 'FAILED' } }, ['alpha-1']],
  ['status always exists', { status: { $exists: true } }, ALL],
  ['name equality', { name: 'gamma' }, ['gamma']],
  ['displayName $regex with a class', { displayName: { $regex: '^alpha-\\d$' } }, ['alpha-1', 'alpha-2']],
  ['display_name $regex with $options i', { display_name: { $regex: '^beta', $options: 'i' } }, ['Beta_%x']],
  ['name $regex without i is case-sensitive', { name: { $regex: '^beta' } }, []],
  ['name $gte and $lt in one object', { name: { $gte: 'alpha-2', $lt: 'gamma' } }, ['alpha-2', 'delta']],
  ['name $lte', { name: { $lte: 'Beta_%x' } }, ['Beta_%x']],
  ['name $in', { name: { $in: ['gamma', 'nope'] } }, ['gamma']],
  ['name $nin', { name: { $nin: ['gamma'] } }, ['Beta_%x', 'alpha-1', 'alpha-2', 'delta']],
  ['tags match when any tag matches', { tags: 'a' }, ['alpha-1', 'delta']],
  ['tags $ne means no tag equals', { tags: { $ne: 'a' } }, ['Beta_%x', 'alpha-2', 'gamma']],
  ['tags $in', { tags: { $in: ['c', 'b'] } }, ['alpha-1', 'alpha-2', 'gamma']],
  ['tags $nin', { tags: { $nin: ['a', 'b'] } }, ['Beta_%x', 'gamma']],
  ['tags $regex', { tags: { $regex: '^[ab]$' } }, ['alpha-1', 'alpha-2', 'delta']],
  ['tags $gt', { tags: { $gt: 'b' } }, ['gamma']],
  ['tags $exists false means no tags', { tags: { $exists: false } }, ['Beta_%x']],
  ['tags null means no tags', { tags: null }, ['Beta_%x']],
  ['createdAt $gte an ISO time', { createdAt: { $gte: '2026-01-01T00:00:03Z' } }, ['Beta_%x', 'delta', 'gamma']],
  ['created_at $lt epoch ms', { created_at: { $lt: T0 + 2000 } }, ['alpha-1']],
  ['createdAt equality', { createdAt: T0 + 3000 }, ['Beta_%x', 'gamma']],
  ['createdAt $in', { createdAt: { $in: [T0 + 1000, '2026-01-01T00:00:05.000Z'] } }, ['alpha-1', 'delta']],
  ['createdAt $ne', { createdAt: { $ne: T0 + 3000 } }, ['alpha-1', 'alpha-2', 'delta']],
  ['createdAt $lte a date without time', { createdAt: { $lte: '2026-01-01' } }, []],
  ['createdAt $gt a time with an offset', { createdAt: { $gt: '2026-01-01T01:00:04+01:00' } }, ['delta']],
  ['updatedAt exists', { updatedAt: { $exists: true } }, ALL],
  ['heartbeat_at before 2020 matches none', { heartbeat_at: { $lt: '2020-01-01' } }, []],
  ['heartbeatAt after 2020 matches all', { heartbeatAt: { $gt: '2020-01-01T00:00:00Z' } }, ALL],
  ['heartbeat_at never missing', { heartbeat_at: { $exists: false } }, []],
  ['config number equality ignores strings', { 'config.lr': 0.01 }, ['alpha-1']],
  ['config string equality ignores numbers', { 'config.lr': '0.01' }, ['Beta_%x']],
  ['config $gt on numbers', { 'config.lr': { $gt: 0.005 } }, ['alpha-1', 'delta']],
  ['config $gte on strings compares strings only', { 'config.lr': { $gte: '0' } }, ['Beta_%x']],
  ['config $lt', { 'config.lr': { $lt: 0.01 } }, ['alpha-2']],
  ['config $lte', { 'config.lr': { $lte: 0.01 } }, ['alpha-1', 'alpha-2']],
  ['config $ne includes missing keys', { 'config.lr': { $ne: 0.01 } }, ['Beta_%x', 'alpha-2', 'delta', 'gamma']],
  ['config $in', { 'config.lr': { $in: [0.001, 0.1] } }, ['alpha-2', 'delta']],
  ['config $nin', { 'config.lr': { $nin: [0.001, 0.1] } }, ['Beta_%x', 'alpha-1', 'gamma']],
  ['config $exists false', { 'config.lr': { $exists: false } }, ['gamma']],
  ['config $exists counts a JSON null', { 'config.nullable': { $exists: true } }, ['Beta_%x']],
  ['config null matches null and missing', { 'config.opt': null }, ['gamma']],
  ['config $ne null', { 'config.nullable': { $ne: null } }, []],
  ['config boolean true', { 'config.flag': true }, ['alpha-1', 'delta']],
  ['config boolean false', { 'config.flag': false }, ['alpha-2']],
  ['config boolean $ne', { 'config.flag': { $ne: true } }, ['Beta_%x', 'alpha-2', 'gamma']],
  ['config $regex', { 'config.opt': { $regex: '^adam' } }, ['alpha-1', 'delta']],
  ['config $regex with i', { 'config.opt': { $regex: '^ADAM', $options: 'i' } }, ['Beta_%x', 'alpha-1', 'delta']],
  ['config $regex never matches numbers', { 'config.lr': { $regex: '0' } }, ['Beta_%x']],
  ['a nested config key', { 'config.nested.depth': { $gte: 4 } }, ['alpha-2']],
  ['a trailing .value is ignored', { 'config.nested.depth.value': 3 }, ['alpha-1']],
  ['an object never equals a scalar', { 'config.nested': { $eq: 3 } }, []],
  ['objects exist', { 'config.nested': { $exists: true } }, ['alpha-1', 'alpha-2']],
  ['systemMetadata $in', { 'systemMetadata.gpu': { $in: ['A100', 'H100'] } }, ['alpha-1', 'alpha-2']],
  ['system_metadata $gt', { 'system_metadata.n': { $gt: 4 } }, ['alpha-1']],
  ['metric $lt', { 'summary_metrics.loss': { $lt: 0.4 } }, ['alpha-2', 'gamma']],
  ['summaryMetrics equality', { 'summaryMetrics.loss': 0.5 }, ['alpha-1']],
  ['metric $gt', { 'summary_metrics.loss': { $gt: 0.3 } }, ['alpha-1']],
  ['metric $gte', { 'summary_metrics.loss': { $gte: 0.3 } }, ['alpha-1', 'alpha-2', 'gamma']],
  ['metric $lte', { 'summary_metrics.loss': { $lte: 0.3 } }, ['alpha-2', 'gamma']],
  ['metric $ne includes runs without it', { 'summary_metrics.loss': { $ne: 0.3 } }, ['Beta_%x', 'alpha-1', 'delta']],
  ['metric $in', { 'summary_metrics.loss': { $in: [0.5, 0.7] } }, ['alpha-1']],
  ['metric $nin', { 'summary_metrics.loss': { $nin: [0.5] } }, ['Beta_%x', 'alpha-2', 'delta', 'gamma']],
  [
    'metric $exists false (NaN-only counts as none)',
    { 'summary_metrics.loss': { $exists: false } },
    ['Beta_%x', 'delta'],
  ],
  ['metric null', { 'summary_metrics.loss': null }, ['Beta_%x', 'delta']],
  ['metric $exists true', { 'summary_metrics.loss': { $exists: true } }, ['alpha-1', 'alpha-2', 'gamma']],
  ['an unknown metric exists nowhere', { 'summary_metrics.nope': { $exists: true } }, []],
  ['$and', { $and: [{ tags: 'a' }, { status: 'RUNNING' }] }, ['alpha-1']],
  [
    '$or over a config key and a metric',
    { $or: [{ 'config.lr': { $lt: 0.005 } }, { 'summary_metrics.acc': { $lt: 0.5 } }] },
    ['alpha-2', 'gamma'],
  ],
  ['top-level $not', { $not: { tags: 'a' } }, ['Beta_%x', 'alpha-2', 'gamma']],
  [
    '$or of $and of $not, nested',
    { $or: [{ status: 'FAILED' }, { $and: [{ tags: 'b' }, { $not: { 'summary_metrics.loss': { $gt: 0.4 } } }] }] },
    ['Beta_%x', 'alpha-2'],
  ],
  ['several keys in one object are AND-ed', { status: 'COMPLETED', 'summary_metrics.loss': 0.3, tags: 'c' }, ['gamma']],
  ['field-level $not', { 'config.lr': { $not: { $gt: 0.005 } } }, ['Beta_%x', 'alpha-2', 'gamma']],
  ['two operators on a metric', { 'summary_metrics.loss': { $gt: 0.2, $lt: 0.4 } }, ['alpha-2', 'gamma']],
  ['$not of $not', { $not: { $not: { name: 'delta' } } }, ['delta']],
];

describe('GET /api/runs/list filters', () => {
  it.each(FILTERS.map(([name, filter, expected]) => ({ name, filter, expected })))(
    '$name',
    async ({ filter, expected }) => {
      expect(await names({ filter: JSON.stringify(filter), sort: 'name' })).toEqual(expected);
    },
  );
});

/** Plain parameters: the query and the names it lists, in name order. */
const PARAMS: [string, Record<string, string>, string[]][] = [
  ['search is a case-insensitive substring', { search: 'ALPHA' }, ['alpha-1', 'alpha-2']],
  ['search treats % literally', { search: '%' }, ['Beta_%x']],
  ['search treats _ literally', { search: 'a_' }, ['Beta_%x']],
  ['tags lists any of several tags', { tags: 'a,c' }, ['alpha-1', 'delta', 'gamma']],
  ['status lists several statuses in any case', { status: 'completed,FAILED' }, ['Beta_%x', 'alpha-2', 'gamma']],
  [
    'parameters AND with the filter',
    { tags: 'a,b', filter: JSON.stringify({ 'summary_metrics.loss': { $exists: true } }) },
    ['alpha-1', 'alpha-2'],
  ],
];

describe('GET /api/runs/list parameters', () => {
  it.each(PARAMS.map(([name, query, expected]) => ({ name, query, expected })))(
    '$name',
    async ({ query, expected }) => {
      expect(await names({ ...query, sort: 'name' })).toEqual(expected);
    },
  );

  it('lists an unknown project as empty', async () => {
    expect((await list({ projectName: 'nope' })).body).toEqual({ runs: [], total: 0 });
  });
});

/** Sorts: the sort and the names in the order listed. */
const SORTS: [string, string | undefined, string[]][] = [
  [
    'the default is newest first, ties by id descending',
    undefined,
    ['delta', 'gamma', 'Beta_%x', 'alpha-2', 'alpha-1'],
  ],
  ['createdAt ascending, ties by id ascending', 'createdAt', ['alpha-1', 'alpha-2', 'Beta_%x', 'gamma', 'delta']],
  ['created_at with a + prefix', '+created_at', ['alpha-1', 'alpha-2', 'Beta_%x', 'gamma', 'delta']],
  ['name in code point order', 'name', ALL],
  ['name descending', '-name', [...ALL].reverse()],
  ['status, ties by id', 'status', ['delta', 'alpha-2', 'gamma', 'Beta_%x', 'alpha-1']],
  ['status descending, ties by id descending', '-status', ['alpha-1', 'Beta_%x', 'gamma', 'alpha-2', 'delta']],
  [
    'a config key: numbers, then strings, then missing',
    'config.lr',
    ['alpha-2', 'alpha-1', 'delta', 'Beta_%x', 'gamma'],
  ],
  ['a config key descending keeps missing last', '-config.lr', ['Beta_%x', 'delta', 'alpha-1', 'alpha-2', 'gamma']],
  ['booleans with ties and missing keys', 'config.flag', ['alpha-2', 'alpha-1', 'delta', 'Beta_%x', 'gamma']],
  ['booleans descending', '-config.flag', ['delta', 'alpha-1', 'alpha-2', 'gamma', 'Beta_%x']],
  [
    'systemMetadata with a trailing .value',
    'systemMetadata.gpu.value',
    ['alpha-1', 'alpha-2', 'Beta_%x', 'gamma', 'delta'],
  ],
  [
    'a metric with ties and missing values',
    'summary_metrics.loss',
    ['alpha-2', 'gamma', 'alpha-1', 'Beta_%x', 'delta'],
  ],
  ['a metric descending', '-summaryMetrics.loss', ['alpha-1', 'gamma', 'alpha-2', 'delta', 'Beta_%x']],
  ['heartbeat_at descending puts the last heartbeat first', '-heartbeat_at', ['Beta_%x']],
];

describe('GET /api/runs/list sorting', () => {
  it.each(SORTS.map(([name, sort, expected]) => ({ name, sort, expected })))('$name', async ({ sort, expected }) => {
    const got = await names(sort === undefined ? {} : { sort });
    expect(got.slice(0, expected.length)).toEqual(expected);
  });

  it('heartbeat_at filters see the heartbeat', async () => {
    expect(await names({ filter: JSON.stringify({ heartbeat_at: { $gte: beforeTrigger } }) })).toEqual(['Beta_%x']);
  });

  it.each(['createdAt', '-config.lr', 'summary_metrics.loss', '-status', 'config.flag'])(
    'pages of 2 sorted by %s add up to the whole list, with the same total on every page',
    async (sort) => {
      const whole = await names({ sort });
      const paged: string[] = [];
      for (let offset = 0; offset < 6; offset += 2) {
        const res = await list({ sort, limit: 2, offset });
        expect(res.body.total).toBe(5);
        paged.push(...(res.body.runs as { name: string }[]).map((r) => r.name));
      }
      expect(paged).toEqual(whole);
    },
  );

  it('counts every match on a page past the end', async () => {
    expect((await list({ offset: 10, tags: 'a' })).body).toEqual({ runs: [], total: 2 });
  });
});

describe('GET /api/runs/list answers', () => {
  it('gives each run its fields, url and config, and no summary unless asked', async () => {
    const res = await list({ filter: JSON.stringify({ name: 'alpha-1' }) });
    const run = (res.body.runs as Record<string, unknown>[])[0]!;
    expect(run).toEqual({
      id: ids.get('alpha-1'),
      name: 'alpha-1',
      number: 1,
      displayId: 'SEA-1',
      projectName: 'search',
      status: 'RUNNING',
      tags: ['a', 'b'],
      createdAt: '2026-01-01T00:00:01.000Z',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      url: expect.stringMatching(/\/o\/acme\/projects\/search\/[A-Za-z0-9]{5,}$/),
      forkedFromRunId: null,
      forkStep: null,
      createdBy: { id: expect.any(Number), name: 'ann' },
      config: RUNS[0].config,
    });
  });

  it('adds the summaries of the metrics asked for, only those the run has', async () => {
    const res = await list({ sort: 'name', metrics: 'loss,acc' });
    const byName = Object.fromEntries(
      (res.body.runs as { name: string; summary: unknown }[]).map((r) => [r.name, r.summary]),
    );
    expect(byName['alpha-1']).toEqual({
      loss: { last: 0.5, min: 0.5, max: 0.5, mean: 0.5, count: 1 },
      acc: { last: 0.9, min: 0.9, max: 0.9, mean: 0.9, count: 1 },
    });
    expect(byName['Beta_%x']).toEqual({});
    expect(byName.delta).toEqual({ loss: { last: null, min: null, max: null, mean: null, count: 0 } });
  });

  it('never lists another organization’s runs, and lists only the caller’s to it', async () => {
    const mine = await list({ tags: 'a,b,c' });
    expect((mine.body.runs as { name: string }[]).map((r) => r.name)).not.toContain('alpha-rival');
    const theirs = await list({}, t.otherKey);
    expect((theirs.body.runs as { name: string }[]).map((r) => r.name)).toEqual(['alpha-rival']);
    expect(theirs.body.total).toBe(1);
  });
});

describe('GET /api/runs/list of forks', () => {
  it('filters, sorts and summarises a fork by its effective series', async () => {
    const parent = await createRun(t.app, t.key, { runName: 'parent', projectName: 'forks' });
    await ingestSeries(t.app, t.key, { runId: parent.runId, projectName: 'forks' }, 0, 9, { loss: (s) => s });
    const fork = await createRun(t.app, t.key, {
      runName: 'fork',
      projectName: 'forks',
      forkRunId: parent.runId,
      forkStep: 4,
    });
    const q = { projectName: 'forks', sort: 'summary_metrics.loss', metrics: 'loss' };
    const res = await list(q);
    expect((res.body.runs as { name: string }[]).map((r) => r.name)).toEqual(['fork', 'parent']);
    expect((res.body.runs as { summary: unknown }[])[0]!.summary).toEqual({
      loss: { last: 4, min: 0, max: 4, mean: 2, count: 5 },
    });
    const only = await list({ ...q, filter: JSON.stringify({ 'summary_metrics.loss': 4 }) });
    expect((only.body.runs as { id: number }[]).map((r) => r.id)).toEqual([fork.runId]);
  });
});

describe('GET /api/runs/list by fork parent', () => {
  it('finds the forks of a run with forkedFromRunId equality and $in, sorts by it, and lists it', async () => {
    const p = 'fork-family';
    const a = await createRun(t.app, t.key, { runName: 'a', projectName: p });
    const b = await createRun(t.app, t.key, { runName: 'b', projectName: p });
    const a1 = await createRun(t.app, t.key, { runName: 'a1', projectName: p, forkRunId: a.runId, forkStep: 3 });
    const a2 = await createRun(t.app, t.key, { runName: 'a2', projectName: p, forkRunId: a.runId, forkStep: 0 });
    const b1 = await createRun(t.app, t.key, { runName: 'b1', projectName: p, forkRunId: b.runId, forkStep: 7 });
    const a11 = await createRun(t.app, t.key, { runName: 'a11', projectName: p, forkRunId: a1.runId, forkStep: 1 });
    const of = async (filter: unknown, sort = 'name') => {
      const res = await list({ projectName: p, filter: JSON.stringify(filter), sort });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.runs as { name: string }[]).map((r) => r.name);
    };
    expect(await of({ forkedFromRunId: a.runId })).toEqual(['a1', 'a2']);
    expect(await of({ forkedFromRunId: { $eq: a1.runId } })).toEqual(['a11']);
    expect(await of({ forkedFromRunId: { $in: [b.runId, a1.runId] } })).toEqual(['a11', 'b1']);
    expect(await of({ forkedFromRunId: null })).toEqual(['a', 'b']);
    expect(await of({ forkedFromRunId: { $exists: true } })).toEqual(['a1', 'a11', 'a2', 'b1']);
    expect(await of({ forkedFromRunId: { $ne: a.runId } })).toEqual(['a', 'a11', 'b', 'b1']);
    expect(await of({ forkedFromRunId: { $nin: [a.runId, b.runId] } })).toEqual(['a', 'a11', 'b']);
    expect(await of({ forkedFromRunId: b1.runId })).toEqual([]);
    // Ascending by parent id (a < a1 < b by creation), ties by id; runs without a parent last.
    expect(await of({}, 'forkedFromRunId')).toEqual(['a1', 'a2', 'b1', 'a11', 'a', 'b']);
    expect(await of({}, '-forkedFromRunId')).toEqual(['a11', 'b1', 'a2', 'a1', 'b', 'a']);
    const res = await list({ projectName: p, filter: JSON.stringify({ forkedFromRunId: a.runId }), sort: 'name' });
    expect(
      (res.body.runs as { id: number; forkedFromRunId: number | null; forkStep: number | null }[]).map((r) => [
        r.id,
        r.forkedFromRunId,
        r.forkStep,
      ]),
    ).toEqual([
      [a1.runId, a.runId, 3],
      [a2.runId, a.runId, 0],
    ]);
    expect(a11.forkedFromRunId).toBe(a1.runId);
  });
});

describe('GET /api/runs/list sorted by a metric over many runs', () => {
  // Its deadline guards against a hang: the setup is fixed (600 runs and 514 ingests through the
  // API), 1-9 s in CI runs, 30 s in a loaded one, past the default 60 s at a load average of 15.
  it('pages sparse matches in value order when the index walk needs several chunks', async () => {
    const values = new Map<number, number>();
    const make = async (i: number) => {
      const ref = await createRun(t.app, t.key, {
        runName: `w${i}`,
        projectName: 'wide',
        tags: i % 10 ? [] : ['rare'],
      });
      if (i % 7 === 3) return; // some runs without the metric
      const v = (i * 37) % 101;
      values.set(ref.runId, v);
      await ingestSeries(t.app, t.key, { runId: ref.runId, projectName: 'wide' }, 0, 0, { score: () => v });
    };
    await tenAtATime(600, make);
    const all = await list({ projectName: 'wide', tags: 'rare', sort: '-summary_metrics.score', limit: 200 });
    const rare = (all.body.runs as { id: number }[]).map((r) => r.id);
    const expected = [...rare].sort((a, b) => {
      const [va, vb] = [values.get(a), values.get(b)];
      if (va === undefined || vb === undefined) return va === vb ? b - a : va === undefined ? 1 : -1;
      return va === vb ? b - a : vb - va;
    });
    expect(rare).toEqual(expected);
    expect(rare).toHaveLength(60);
    const page = await list({
      projectName: 'wide',
      tags: 'rare',
      sort: '-summary_metrics.score',
      limit: 5,
      offset: 40,
    });
    expect((page.body.runs as { id: number }[]).map((r) => r.id)).toEqual(expected.slice(40, 45));
    expect(page.body.total).toBe(60);
  }, 300_000);
});

const deep = (n: number): unknown => (n === 0 ? { name: 'x' } : { $not: deep(n - 1) });

/** Bad requests: the query and a word the error must contain. */
const BAD: [string, Record<string, string | number>, string][] = [
  ['projectName is required', { projectName: '' }, 'projectName'],
  ['limit 0', { limit: 0 }, 'limit'],
  ['limit 201', { limit: 201 }, 'limit'],
  ['a negative offset', { offset: -1 }, 'offset'],
  ['offset past 100,000', { offset: 100_001 }, 'offset'],
  ['an unknown status', { status: 'RUNNING,BOGUS' }, 'BOGUS'],
  ['an unknown sort field lists the allowed ones', { sort: 'bogus' }, 'createdAt'],
  ['a sort by tags', { sort: '-tags' }, 'tags'],
  ['a filter that is not JSON', { filter: '{name:' }, 'JSON'],
  ['a filter that is not an object', { filter: '[]' }, 'object'],
  ['an unknown field lists the fields', { filter: '{"bogus":1}' }, 'summary_metrics'],
  ['an unknown top-level operator', { filter: '{"$nor":[]}' }, '$nor'],
  ['forkedFromRunId compared with a string', { filter: '{"forkedFromRunId":"12"}' }, 'run ids'],
  ['forkedFromRunId with $regex', { filter: '{"forkedFromRunId":{"$regex":"1"}}' }, '$regex'],
  ['an unknown field operator', { filter: '{"name":{"$foo":1}}' }, '$foo'],
  ['an unbalanced regex', { filter: '{"name":{"$regex":"(a"}}' }, 'regex'],
  ['a lookahead', { filter: '{"name":{"$regex":"(?=a)"}}' }, 'lookaround'],
  ['a backreference', { filter: '{"name":{"$regex":"(a)\\\\1"}}' }, 'backreferences'],
  ['a lazy quantifier', { filter: '{"name":{"$regex":"a*?"}}' }, 'quantifier'],
  ['a word boundary', { filter: '{"name":{"$regex":"\\\\bx"}}' }, '\\b'],
  ['a regex of 257 characters', { filter: JSON.stringify({ name: { $regex: 'a'.repeat(257) } }) }, '256'],
  ['a regex whose repeats expand too far', { filter: '{"name":{"$regex":"(a{100}){100}"}}' }, 'complex'],
  ['a repeat count over 100', { filter: '{"name":{"$regex":"a{101}"}}' }, '100'],
  ['$options other than i', { filter: '{"name":{"$regex":"a","$options":"g"}}' }, '$options'],
  ['$options without $regex', { filter: '{"name":{"$options":"i"}}' }, '$options'],
  ['nesting deeper than 50', { filter: JSON.stringify(deep(51)) }, '50'],
  ['an array value', { filter: '{"name":["x"]}' }, 'arrays'],
  ['a number for a name', { filter: '{"name":5}' }, 'strings'],
  ['a time that is not ISO-8601', { filter: '{"createdAt":"yesterday"}' }, 'ISO-8601'],
  ['a regex on a metric', { filter: '{"summary_metrics.loss":{"$regex":"1"}}' }, 'text fields'],
  ['a string for a metric', { filter: '{"summary_metrics.loss":"1"}' }, 'numbers'],
  ['a boolean range', { filter: '{"config.a":{"$gt":true}}' }, 'ranges'],
  ['an empty $and', { filter: '{"$and":[]}' }, '$and'],
  ['$or of an object', { filter: '{"$or":{}}' }, '$or'],
  ['$in of a string', { filter: '{"name":{"$in":"x"}}' }, '$in'],
  ['$in of 101 values', { filter: JSON.stringify({ name: { $in: Array(101).fill('x') } }) }, '100'],
  ['$exists of a number', { filter: '{"name":{"$exists":1}}' }, '$exists'],
  ['an empty operator object', { filter: '{"name":{}}' }, 'operators'],
  ['an empty config key', { filter: '{"config..a":1}' }, 'empty key'],
  ['201 conditions', { filter: JSON.stringify({ $and: Array.from({ length: 201 }, () => ({ name: 'x' })) }) }, '200'],
  [
    '11 metrics',
    { filter: JSON.stringify({ $and: Array.from({ length: 11 }, (_, i) => ({ [`summary_metrics.m${i}`]: 1 })) }) },
    '10',
  ],
  ['21 summary metrics', { metrics: Array.from({ length: 21 }, (_, i) => `m${i}`).join(',') }, '20'],
  ['a filter over 20,000 characters', { filter: JSON.stringify({ name: 'x'.repeat(20_000) }) }, 'filter'],
];

describe('GET /api/runs/list refuses', () => {
  it.each(BAD.map(([name, query, word]) => ({ name, query, word })))(
    '$name with a 400 naming it',
    async ({ query, word }) => {
      const res = await list(query);
      expectError(res, 400);
      expect(res.body.error).toContain(word);
    },
  );
});

describe('GET /api/runs/list with hostile regexes', () => {
  const HOSTILE = ['(a+)+$', '(a|aa)*c', '(x+x+)+y', '(a*)*b', '^(([a-z])+.)+[A-Z]([a-z])+$', '(.*a){20}'];

  it.each(HOSTILE)('answers %s over a 50,000-character config value within a second', async (pattern) => {
    await createRun(t.app, t.key, {
      runName: 'redos',
      projectName: 'redos',
      config: JSON.stringify({ text: `${'a'.repeat(50_000)}!` }),
    });
    const started = performance.now();
    const res = await list({ projectName: 'redos', filter: JSON.stringify({ 'config.text': { $regex: pattern } }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('matches what the canonical dialect says on both engines: escapes, classes, dot and newlines', async () => {
    await createRun(t.app, t.key, {
      runName: 'dialect',
      projectName: 'dialect',
      config: JSON.stringify({ s: 'a.b]c\\d-e^f\nG7_ ' }),
    });
    const cases: [string, boolean][] = [
      ['a\\.b', true],
      ['a.b', true],
      ['x.b', false],
      ['[\\]]c', true],
      ['\\\\d', true],
      ['[\\-]e', true],
      ['\\^f', true],
      ['f.G', true],
      ['^a', true],
      ['G$', false],
      ['\\d_\\s$', true],
      ['\\W\\w', true],
      ['[^a-z]7', true],
      ['(?:b|x)\\]', true],
      ['c{2}', false],
      ['^.{5,}$', true],
      ['[[:alpha:]]', false],
    ];
    for (const [pattern, matches] of cases) {
      const res = await list({ projectName: 'dialect', filter: JSON.stringify({ 'config.s': { $regex: pattern } }) });
      if (pattern === '[[:alpha:]]') {
        expectError(res, 400);
        continue;
      }
      expect(res.status, `${pattern}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.total, pattern).toBe(matches ? 1 : 0);
    }
  });
});
