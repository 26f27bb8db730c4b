/**
 * The `configKeys` parameter of GET /api/runs/groups: per group and key, the number of
 * distinct values its runs hold (a run without the key holds null) and the first 10 in key
 * order; bad keys are 400s. Runs on SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunGroups } from '../../src/api/schemas/groups.js';
import { getOk, qs } from '../helpers/ingest-api.js';
import { createRun, itScenarios, type Scenario } from '../helpers/run-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';
import { checkConfigCells, MAX_CONFIG_CELLS } from '../../src/services/run-group-configs.js';
import { AppError } from '../../src/errors.js';

const PROJECT = 'cfg';
let t: TestApp;

/** lr 0.1: a (adam, seed 0, nested b 1), b (adam, seed 1), c (no opt, seed 2); lr 0.2: 12 runs, seed 0..11. */
beforeAll(async () => {
  t = await makeTestApp();
  const runs: object[] = [
    { lr: 0.1, opt: 'adam', seed: 0, nested: { b: 1 } },
    { lr: 0.1, opt: 'adam', seed: 1, nested: { b: 1 } },
    { lr: 0.1, seed: 2, nested: { b: 1 } },
    ...Array.from({ length: 12 }, (_, i) => ({ lr: 0.2, opt: 'sgd', seed: 11 - i, nested: { b: [1, 2] } })),
  ];
  for (const [i, config] of runs.entries()) {
    await createRun(t.app, t.key, { runName: `r${i}`, projectName: PROJECT, config: JSON.stringify(config) });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/runs/groups?configKeys=', () => {
  it("counts each key's distinct values per group and lists the first 10 in key order", async () => {
    const url = `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', configKeys: 'opt, seed,nested.b,gone,opt' })}`;
    const answer = await getOk<RunGroups>(t.app, t.key, url);
    expect(answer.groups.map((g) => [g.key['config.lr'], g.configValues])).toEqual([
      [
        0.1,
        {
          opt: { count: 2, values: ['adam', null] },
          seed: { count: 3, values: [0, 1, 2] },
          'nested.b': { count: 1, values: [1] },
          gone: { count: 1, values: [null] },
        },
      ],
      [
        0.2,
        {
          opt: { count: 1, values: ['sgd'] },
          seed: { count: 12, values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
          'nested.b': { count: 1, values: ['[1,2]'] },
          gone: { count: 1, values: [null] },
        },
      ],
    ]);
  });

  it('reads at most 1,000,000 config values (keys × matching runs) in one grouping', () => {
    expect(MAX_CONFIG_CELLS).toBe(1_000_000);
    expect(() => checkConfigCells(100, 10_000)).not.toThrow();
    expect(() => checkConfigCells(0, 100_000)).not.toThrow();
    let refused: unknown;
    try {
      checkConfigCells(100, 10_001);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'RESULT_TOO_LARGE',
      message: expect.stringMatching(/100 keys of 10,001 runs/),
    });
  });

  it('answers no configValues without configKeys', async () => {
    const url = `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr' })}`;
    const answer = await getOk<RunGroups>(t.app, t.key, url);
    expect(answer.groups[0]!.configValues).toBeUndefined();
  });

  const bad = (name: string, configKeys: string): Scenario => ({
    name,
    method: 'GET',
    url: `/api/runs/groups?${qs({ projectName: PROJECT, groupBy: 'config.lr', configKeys })}`,
    status: 400,
    code: 'BAD_REQUEST',
  });
  itScenarios(
    () => t,
    [
      bad('refuses an empty key in a path', 'a..b'),
      bad('refuses a key with a double quote', 'a"b'),
      bad('refuses more than 100 keys', Array.from({ length: 101 }, (_, i) => `k${i}`).join(',')),
    ],
  );
});
