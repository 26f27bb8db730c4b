/**
 * The byte bound (STEPWISE_READ_MAX_BYTES) of GET /api/runs/leaderboard and GET /api/runs/compare
 * (issue 25, item 2), whose rows carry whole configs: a small bound (200 kB) and configs of
 * about 74 kB, so that three configs pass it and two do not. Within it, the answers are those
 * the runs' details describe, configs intact (astral characters and escapes included, across
 * the pieces the answer is streamed in). runs/list and details: read-bounds.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createRun, expectError, getDetails } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';
import { ingestOk, metricLine, pyNdjson, qs } from '../helpers/ingest-api.js';
import type { Compare, Leaderboard } from '../../src/api/schemas/rankings.js';
import type { RunDetails } from '../../src/api/schemas/runs.js';

const t = useTestApp({ STEPWISE_READ_MAX_BYTES: '200000' });

/**
 * About 74 kB of UTF-8 in about 69,500 UTF-16 units: longer than one 64 K-character piece of a
 * streamed answer, with a pad that puts a surrogate pair across the cut for one of pads 1 and 2.
 */
const bigConfig = (i: number) => ({
  s: `${'p'.repeat(1 + (i % 2))}${'a'.repeat(65_520)}${'\u{1F600}'.repeat(2_000)}`,
  q: '"\\\n\u2028é',
  lr: i / 10,
});

/** A run of `project` with the config (unset when undefined) and loss values 0..loss; returns its details. */
async function seed(project: string, loss: number, config?: unknown): Promise<RunDetails> {
  const { runId } = await createRun(t.app, t.key, {
    runName: `run ${loss} ☃`,
    projectName: project,
    tags: ['t', `l${loss}`],
    config: config === undefined ? null : JSON.stringify(config),
  });
  const lines = Array.from({ length: loss + 1 }, (_, step) => metricLine(step, { loss: step }));
  await ingestOk(t.app, t.key, 'metrics', { runId }, pyNdjson(lines));
  return getDetails(t.app, t.key, runId);
}

/** Four runs: one without config (loss 0), three with big configs (loss 1..3). */
const seedAll = async (project: string): Promise<RunDetails[]> => [
  await seed(project, 0),
  ...(await Promise.all([1, 2, 3].map((i) => seed(project, i, bigConfig(i))))),
];

const get = (path: string, params: Record<string, string | number>) =>
  call(t.app, 'GET', `${path}?${qs(params)}`, t.key);

describe('the byte bound of GET /api/runs/leaderboard', () => {
  const board = (projectName: string, params: Record<string, number> = {}) =>
    get('/api/runs/leaderboard', { projectName, logName: 'loss', aggregation: 'LAST', ...params });

  it('refuses a page whose configs would pass the bound, naming a lower limit', async () => {
    await seedAll('lb-big');
    const res = await board('lb-big', { limit: 4 });
    expectError(res, 400, 'RESULT_TOO_LARGE');
    expect(res.body.error).toContain('lower limit');
    expect(res.body.error).toContain('STEPWISE_READ_MAX_BYTES');
    expectError(await board('lb-big', { limit: 3, offset: 1 }), 400, 'RESULT_TOO_LARGE');
  });

  it('answers pages within the bound with each run as its details have it, configs intact', async () => {
    const runs = await seedAll('lb-fit');
    const row = (d: RunDetails, rank: number) => ({
      rank,
      runId: d.id,
      runName: d.name,
      status: d.status,
      url: d.url,
      value: rank - 1,
      tags: d.tags,
      createdAt: d.createdAt,
      config: d.config,
    });
    const head = { projectName: 'lb-fit', logName: 'loss', aggregation: 'LAST', direction: 'ASC', total: 4 };
    const first = await board('lb-fit', { limit: 3 });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    expect(first.body as unknown as Leaderboard).toEqual({
      ...head,
      runs: runs.slice(0, 3).map((d, i) => row(d, i + 1)),
    });
    expect(runs.slice(1).map((d) => d.config)).toEqual([1, 2, 3].map(bigConfig));
    const last = await board('lb-fit', { limit: 3, offset: 3 });
    expect(last.body as unknown as Leaderboard).toEqual({ ...head, runs: [row(runs[3]!, 4)] });
  });
});

describe('the byte bound of GET /api/runs/compare', () => {
  const compare = (projectName: string, runIds: number[]) =>
    get('/api/runs/compare', { projectName, logName: 'loss', runIds: runIds.join(',') });

  it('refuses runs whose configs would pass the bound, naming fewer runIds', async () => {
    const ids = (await seedAll('cmp-big')).map((d) => d.id);
    const res = await compare('cmp-big', ids);
    expectError(res, 400, 'RESULT_TOO_LARGE');
    expect(res.body.error).toContain('fewer runIds');
    expect(res.body.error).toContain('STEPWISE_READ_MAX_BYTES');
  });

  it('answers runs within the bound as their details have them, configs intact; omitted runs do not count', async () => {
    const runs = await seedAll('cmp-fit');
    const other = await seed('cmp-other', 4, bigConfig(4));
    const asked = [runs[3]!, runs[0]!, runs[1]!];
    const res = await compare('cmp-fit', [...asked.map((d) => d.id), other.id]);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const n = (d: RunDetails) => Number(/\d+/.exec(d.name)![0]);
    expect(res.body as unknown as Compare).toEqual({
      projectName: 'cmp-fit',
      logName: 'loss',
      comparisonUrl: `${t.deps.config.publicUrl}/o/${t.org}/projects/cmp-fit/compare?runs=${asked.map((d) => d.id).join(',')}`,
      runs: asked.map((d) => ({
        runId: d.id,
        runName: d.name,
        url: d.url,
        status: d.status,
        stats: { count: n(d) + 1, min: 0, max: n(d), mean: n(d) / 2, final: n(d) },
        config: d.config,
      })),
    });
    expect(asked.map((d) => d.config)).toEqual([bigConfig(3), null, bigConfig(1)]);
  });
});
