/**
 * Alert rules (docs/api.md §15): checked as points arrive, a crossing records an alert on the
 * run (the list client alerts are in) and an `alert_rule.triggered` event, once per crossing.
 */
import { describe, expect, it } from 'vitest';
import type { AlertRule, AlertRuleList } from '../../src/api/schemas/alert-rules.js';
import type { AlertList } from '../../src/api/schemas/logs.js';
import { ingestOk, metricLine, pyNdjson, type PyValue } from '../helpers/ingest-api.js';
import { createRun, expectError, itScenarios, scenarioRows } from '../helpers/run-api.js';
import { call, useTestApp } from '../helpers/test-app.js';

const t = useTestApp();

async function addRule(body: Record<string, unknown>, key = t.key): Promise<AlertRule> {
  const res = await call(t.app, 'POST', '/api/alert-rules', key, { projectName: 'p', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as AlertRule;
}

async function send(runId: number, name: string, values: [number, number][]): Promise<void> {
  const lines: PyValue[] = values.map(([step, value]) => metricLine(step, { [name]: value }));
  await ingestOk(t.app, t.key, 'metrics', { runId }, pyNdjson(lines));
}

async function alerts(runId: number): Promise<AlertList['alerts']> {
  const res = await call(t.app, 'GET', `/api/runs/alerts?runId=${runId}`, t.key);
  expect(res.status).toBe(200);
  return (res.body as unknown as AlertList).alerts;
}

describe('checking rules as points arrive', () => {
  it('fires val/loss > 5 once when a point crosses it, and again only after it fell back', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const rule = await addRule({ logName: 'val/loss', kind: 'above', threshold: 5 });
    expect(rule).toMatchObject({ description: 'val/loss > 5', kind: 'above', threshold: 5, projectName: 'p' });
    await send(run.runId, 'val/loss', [
      [0, 1],
      [1, 4],
    ]);
    expect(await alerts(run.runId)).toEqual([]);
    await send(run.runId, 'val/loss', [
      [2, 4.5],
      [3, 7.25],
      [4, 9],
    ]);
    await send(run.runId, 'val/loss', [[5, 12]]);
    const fired = await alerts(run.runId);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ title: 'val/loss > 5', level: 'WARN' });
    expect(JSON.stringify(fired[0])).toContain('step 3');
    await send(run.runId, 'val/loss', [
      [6, 2],
      [7, 6],
    ]);
    expect(await alerts(run.runId)).toHaveLength(2);
  });

  it('fires on a non-finite value and on no improvement for N steps', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    await addRule({ logName: 'loss', kind: 'non_finite' });
    await addRule({ logName: 'val/acc', kind: 'no_improvement', steps: 3, goal: 'max' });
    await send(run.runId, 'loss', [
      [0, 1],
      [1, Number.NaN],
      [2, Number.NaN],
    ]);
    await send(run.runId, 'val/acc', [
      [0, 0.5],
      [1, 0.6],
      [2, 0.7],
      [3, 0.65],
      [4, 0.69],
    ]);
    expect((await alerts(run.runId)).map((a) => a.title)).toEqual(['loss is not finite']);
    await send(run.runId, 'val/acc', [[5, 0.6]]);
    expect((await alerts(run.runId)).map((a) => a.title)).toEqual([
      'loss is not finite',
      'val/acc: no new max for 3 steps',
    ]);
  });

  it('checks only the rule’s project, and stops when the rule is deleted', async () => {
    const other = await createRun(t.app, t.key, { runName: 'o', projectName: 'q' });
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const rule = await addRule({ logName: 'x', kind: 'below', threshold: 0 });
    await send(other.runId, 'x', [[0, -1]]);
    expect(await alerts(other.runId)).toEqual([]);
    expect((await call(t.app, 'DELETE', `/api/alert-rules/${rule.id}`, t.key)).status).toBe(204);
    await send(run.runId, 'x', [[0, -1]]);
    expect(await alerts(run.runId)).toEqual([]);
  });
});

describe('managing rules', () => {
  it('lists a project’s rules oldest first; another organization sees none of them', async () => {
    await createRun(t.app, t.key, { runName: 'r', projectName: 'p' });
    const a = await addRule({ logName: 'a', kind: 'above', threshold: 1 });
    const b = await addRule({ logName: 'b', kind: 'no_improvement', steps: 10 });
    const list = (await call(t.app, 'GET', '/api/alert-rules?projectName=p', t.key)).body as unknown as AlertRuleList;
    expect(list.rules.map((r) => [r.id, r.description])).toEqual([
      [a.id, 'a > 1'],
      [b.id, 'b: no new min for 10 steps'],
    ]);
    expectError(await call(t.app, 'GET', '/api/alert-rules?projectName=p', t.otherKey), 404, 'NOT_FOUND');
    expectError(await call(t.app, 'DELETE', `/api/alert-rules/${a.id}`, t.otherKey), 404, 'NOT_FOUND');
  });

  const row = scenarioRows('POST', '/api/alert-rules');
  itScenarios(
    t,
    [
      row('refuses a threshold rule without a threshold', { projectName: 'p', logName: 'x', kind: 'above' }, 400),
      row(
        'refuses a no_improvement rule without steps',
        { projectName: 'p', logName: 'x', kind: 'no_improvement' },
        400,
      ),
      row('refuses an unknown kind', { projectName: 'p', logName: 'x', kind: 'sideways' }, 400),
      row('refuses an empty metric name', { projectName: 'p', logName: '', kind: 'non_finite' }, 400),
      row('answers 404 for an unknown project', { projectName: 'nope', logName: 'x', kind: 'non_finite' }, 404),
    ],
    { before: () => createRun(t.app, t.key, { runName: 'r', projectName: 'p' }) },
  );
});
