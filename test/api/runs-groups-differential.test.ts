/**
 * GET /api/runs/groups/metrics against brute force: random groups of runs with random step
 * sets, re-logged steps, non-finite values and forks (some logging at inherited steps);
 * every bucket of every group, for random bucket counts and step windows, equals a
 * computation over every point written (kept in a model here), to 1e-9 relative. Runs on
 * SQLite and (Vitest project `postgres`) PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupMetrics } from '../../src/api/schemas/groups.js';
import { createRun } from '../helpers/run-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';
import { getOk, ingestOk, metricLine, pyNdjson, qs, type PyValue } from '../helpers/ingest-api.js';
import { prng } from '../../src/domain/prng.js';

const PROJECT = 'sweep';
const MAX_STEP = 3000;

const SEED = 2817;
const rand = prng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A run of the model: its group key and its own points (step → value, the last write wins). */
interface ModelRun {
  runId: number;
  lr: number;
  opt: string | null;
  own: Map<number, number>;
  fork?: { parent: ModelRun; step: number };
}
const runs: ModelRun[] = [];
let t: TestApp;
let clock = 1_700_000_000_000;

/** A random value: mostly finite around a run's level, sometimes NaN or ±Infinity. */
function value(level: number): number {
  const r = rand();
  if (r < 0.015) return NaN;
  if (r < 0.025) return rand() < 0.5 ? Infinity : -Infinity;
  return level + (rand() - 0.5) * 4 + (rand() < 0.05 ? 1e6 : 0);
}

/** A random sorted step set in [from, to]: dense stretches (strided chunks) and sparse ones. */
function stepSet(from: number, to: number): number[] {
  const out: number[] = [];
  let s = from;
  while (s <= to) {
    const dense = rand() < 0.6;
    const len = 1 + Math.floor(rand() * 400);
    for (let i = 0; i < len && s <= to; i++) {
      out.push(s);
      s += dense ? 1 : 1 + Math.floor(rand() * 20);
    }
    s += Math.floor(rand() * 60);
  }
  return out;
}

/** Ingests points (step order within the request) with increasing times; the model keeps the last. */
async function log(run: ModelRun, steps: readonly number[], level: number): Promise<void> {
  for (let i = 0; i < steps.length; i += 1000) {
    const lines: PyValue[] = [];
    for (const step of steps.slice(i, i + 1000)) {
      const v = value(level);
      run.own.set(step, v);
      lines.push(metricLine(step, { loss: v }, clock++));
    }
    await ingestOk(t.app, t.key, 'metrics', { runId: run.runId }, pyNdjson(lines));
  }
}

async function makeRun(parent?: { run: ModelRun; step: number }): Promise<ModelRun> {
  // A fork inherits its parent's config (and so its group).
  const lr = parent ? parent.run.lr : pick([0.1, 0.01, 0.001]);
  const opt = parent ? parent.run.opt : rand() < 0.15 ? null : pick(['adam', 'sgd']);
  const config = JSON.stringify(opt === null ? { lr } : { lr, opt });
  const ref = await createRun(t.app, t.key, {
    runName: `r${runs.length}`,
    projectName: PROJECT,
    ...(parent ? { forkRunId: parent.run.runId, forkStep: parent.step } : { config }),
  });
  const run: ModelRun = { runId: ref.runId, lr, opt, own: new Map() };
  if (parent) run.fork = { parent: parent.run, step: parent.step };
  runs.push(run);
  return run;
}

/** A run's effective points: its own, then (a fork) its parent's effective points up to the fork step it has not logged. */
function effective(run: ModelRun): Map<number, number> {
  const out = new Map(run.own);
  if (run.fork) {
    for (const [step, v] of effective(run.fork.parent)) if (step <= run.fork.step && !out.has(step)) out.set(step, v);
  }
  return out;
}

beforeAll(async () => {
  t = await makeTestApp();
  for (let i = 0; i < 14; i++) {
    const run = await makeRun();
    const level = rand() * 10;
    await log(run, stepSet(Math.floor(rand() * 200), MAX_STEP - Math.floor(rand() * 800)), level);
    // Re-logged steps: some earlier steps again, later in time.
    const relog = [...run.own.keys()].filter(() => rand() < 0.05).sort((a, b) => a - b);
    await log(run, relog, level);
  }
  for (let i = 0; i < 6; i++) {
    const parent = pick(runs);
    const steps = [...effective(parent).keys()].sort((a, b) => a - b);
    const step = steps[Math.floor(rand() * steps.length)]!;
    const child = await makeRun({ run: parent, step });
    // Half the forks also log at inherited steps (their effective series then overlaps the parent's).
    const from = rand() < 0.5 ? Math.max(0, step - 150) : step + 1;
    await log(child, stepSet(from, MAX_STEP), rand() * 10);
  }
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** The expected buckets of one group, by brute force over the model's effective points. */
function expected(members: readonly ModelRun[], stepMin: number, stepMax: number, limit: number) {
  const span = stepMax - stepMin + 1;
  const width = span <= limit ? 1 : Math.ceil(span / limit);
  const perBucket = new Map<number, { values: number[]; nonFinite: number }>();
  for (const run of members) {
    const sums = new Map<number, { sum: number[]; nonFinite: number }>();
    for (const [step, v] of effective(run)) {
      if (step < stepMin || step > stepMax) continue;
      const b = Math.floor((step - stepMin) / width);
      const s = sums.get(b) ?? { sum: [], nonFinite: 0 };
      if (Number.isFinite(v)) s.sum.push(v);
      else s.nonFinite++;
      sums.set(b, s);
    }
    for (const [b, s] of sums) {
      const e = perBucket.get(b) ?? { values: [], nonFinite: 0 };
      e.nonFinite += s.nonFinite;
      if (s.sum.length > 0) e.values.push(s.sum.reduce((a, x) => a + x, 0) / s.sum.length);
      perBucket.set(b, e);
    }
  }
  return [...perBucket.entries()]
    .filter(([, e]) => e.values.length > 0)
    .sort((a, b) => a[0] - b[0])
    .map(([b, e]) => {
      const n = e.values.length;
      const mean = e.values.reduce((a, x) => a + x, 0) / n;
      const std = n < 2 ? null : Math.sqrt(e.values.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
      const step = stepMin + b * width;
      return {
        step,
        stepEnd: Math.min(stepMax, step + width - 1),
        n,
        mean,
        std,
        stderr: std === null ? null : std / Math.sqrt(n),
        min: Math.min(...e.values),
        max: Math.max(...e.values),
        nonFinite: e.nonFinite,
      };
    });
}

/** True when a and b agree to 1e-9 relative (exactly for null). */
const close = (a: number | null, b: number | null): boolean =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300);

describe('GET /api/runs/groups/metrics is exact', () => {
  it('equals brute force over every stored point in every bucket, for random windows and bucket counts', async () => {
    const visible = runs.flatMap((r) => [...effective(r).keys()]);
    const first = Math.min(...visible);
    const last = Math.max(...visible);
    const cases: { limit: number; stepMin?: number; stepMax?: number; groupBy: string }[] = [
      { limit: 1000, groupBy: 'config.lr,config.opt' },
      { limit: 7, groupBy: 'config.lr' },
      { limit: 1, groupBy: 'config.opt' },
      { limit: 10_000, groupBy: 'config.lr' },
    ];
    for (let i = 0; i < 10; i++) {
      const a = Math.floor(rand() * MAX_STEP);
      const b = a + Math.floor(rand() * (MAX_STEP - a + 50));
      cases.push({
        limit: pick([2, 3, 10, 25, 64, 100, 333, 1500]),
        ...(rand() < 0.8 && { stepMin: a }),
        ...(rand() < 0.8 && { stepMax: b }),
        groupBy: pick(['config.lr', 'config.opt', 'config.lr,config.opt']),
      });
    }
    let buckets = 0;
    let nonFinite = 0;
    for (const c of cases) {
      const url = `/api/runs/groups/metrics?${qs({ projectName: PROJECT, logName: 'loss', ...c })}`;
      const answer = await getOk<GroupMetrics>(t.app, t.key, url);
      const fields = c.groupBy.split(',');
      const keyOf = (r: ModelRun) => JSON.stringify(fields.map((f) => (f === 'config.lr' ? r.lr : r.opt)));
      const stepMin = Math.max(c.stepMin ?? first, 0);
      const stepMax = c.stepMax ?? last;
      const groupKeys = new Set(runs.map(keyOf));
      expect(answer.total, url).toBe(groupKeys.size);
      for (const group of answer.groups) {
        const key = JSON.stringify(fields.map((f) => group.key[f]));
        const members = runs.filter((r) => keyOf(r) === key);
        expect(group.runCount, `${url} ${key}`).toBe(members.length);
        const want = stepMin <= stepMax ? expected(members, stepMin, stepMax, c.limit) : [];
        expect(group.points.length, `${url} ${key}`).toBe(want.length);
        group.points.forEach((p, i) => {
          const w = want[i]!;
          const label = `${url} ${key} bucket ${p.step}..${p.stepEnd}: ${JSON.stringify(p)} vs ${JSON.stringify(w)}`;
          expect([p.step, p.stepEnd, p.n, p.nonFinite ?? 0], label).toEqual([w.step, w.stepEnd, w.n, w.nonFinite]);
          for (const f of ['mean', 'std', 'stderr', 'min', 'max'] as const)
            expect(close(p[f], w[f]), `${label} ${f}`).toBe(true);
          buckets++;
          nonFinite += w.nonFinite;
        });
      }
    }
    expect(buckets).toBeGreaterThan(1000);
    expect(nonFinite).toBeGreaterThan(0);
  });
});
