/**
 * SeriesStore conformance: sampled metric queries over wide step ranges (where a backend may
 * answer from chunk statistics) checked against a brute-force model after random writes, also with
 * steps up to 2^53−1 (each such read must answer within seconds, not tile the whole span).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { samplePoints } from '../../src/domain/sampling.js';
import type { LineageLink, MetricPoint, MetricPointInput } from '../../src/domain/types.js';
import type { MetricQuery, SeriesStore } from '../../src/store/series-store.js';
import { asStored, own, PointModel, pt, range, withStore, type OpenSeriesStore } from './series-suite-helpers.js';

/** Metric values, non-finite ones included; -0 is stored as 0 by SQL engines, so the model uses 0. */
export const value = fc
  .oneof(
    { weight: 8, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
  )
  .map((v) => (v === 0 ? 0 : v));

/** Batches of points of `loss` for run 1 (parent) or 2 (child), steps spread over 0..6000. */
const batch = fc.record({
  run: fc.constantFrom(1, 1, 2),
  start: fc.integer({ min: 0, max: 6000 }),
  stride: fc.integer({ min: 1, max: 40 }),
  time: fc.integer({ min: 0, max: 3 }),
  values: fc.array(value, { minLength: 1, maxLength: 120 }),
});

/** Checks a sampled answer against the model's effective points of the range. */
function checkSample(got: MetricPoint[], effective: MetricPoint[], limit: number): void {
  if (effective.length === 0) return expect(got).toEqual([]);
  expect(got.length).toBeLessThanOrEqual(limit);
  if (effective.length <= limit) return expect(got).toEqual(effective);
  const byStep = new Map(effective.map((p) => [p.step, p]));
  for (let i = 0; i < got.length; i++) {
    const p = got[i]!;
    expect(byStep.get(p.step), `step ${p.step} is a real point`).toEqual(p);
    if (i > 0) expect(p.step).toBeGreaterThan(got[i - 1]!.step);
  }
  expect(got[0]).toEqual(effective[0]);
  expect(got[got.length - 1]).toEqual(effective[effective.length - 1]);
  const finite = effective.filter((p) => p.value !== null).map((p) => p.value!);
  // With limit 4 or more there is room for at least one bucket's minimum and maximum.
  if (finite.length > 0 && limit >= 4) {
    const values = got.map((p) => p.value);
    expect(values, 'keeps the minimum').toContain(Math.min(...finite));
    expect(values, 'keeps the maximum').toContain(Math.max(...finite));
  }
}

const HUGE = Number.MAX_SAFE_INTEGER;

/** Runs a query that must answer within 2 s (a read that tiles a huge span takes minutes or runs out of memory). */
async function timedQuery(series: SeriesStore, lineage: LineageLink[], q: MetricQuery): Promise<MetricPoint[]> {
  const started = performance.now();
  const answer = await series.queryMetrics(lineage, q);
  expect(performance.now() - started, `query ${JSON.stringify(q)}`).toBeLessThan(2000);
  return answer[0]?.points ?? [];
}

/** Writes points to the store and the model, then checks sampled queries of every range against the model. */
async function checkRanges(
  series: SeriesStore,
  model: PointModel,
  lineage: LineageLink[],
  queries: readonly (readonly [number, number, number])[],
): Promise<void> {
  for (const [stepMin, stepMax, limit] of queries) {
    const effective = asStored(model.effective(lineage, 'loss')).filter((p) => p.step >= stepMin && p.step <= stepMax);
    const got = await timedQuery(series, lineage, { logNames: ['loss'], stepMin, stepMax, limit });
    checkSample(got, effective, limit);
  }
}

/** Registers the sampling cases. */
export function samplingCases(open: OpenSeriesStore): void {
  describe('sampled metric queries over wide ranges', () => {
    it('return real points in step order, within the limit, with the first, the last, the minimum and the maximum', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(batch, { minLength: 1, maxLength: 12 }),
          fc.integer({ min: 0, max: 3000 }),
          fc.boolean(),
          fc.integer({ min: 0, max: 6500 }),
          fc.integer({ min: 0, max: 6500 }),
          fc.integer({ min: 3, max: 80 }),
          async (batches, forkStep, overlap, a, b, limit) => {
            const store = await open();
            try {
              const model = new PointModel();
              for (const bt of batches) {
                const points: MetricPointInput[] = bt.values.map((v, i) => ({
                  logName: 'loss',
                  step: bt.start + i * bt.stride,
                  time: bt.time,
                  value: v,
                }));
                // Without overlap the child only writes above forkStep (the common resume-from-checkpoint case).
                const kept = bt.run === 2 && !overlap ? points.filter((p) => p.step > forkStep) : points;
                if (kept.length === 0) continue;
                model.apply(bt.run, kept);
                await store.series.appendMetrics({ id: bt.run, projectId: 1 }, kept);
              }
              const lineages: LineageLink[][] = [own(1), [...own(2), { runId: 1, maxStep: forkStep }]];
              const [stepMin, stepMax] = [Math.min(a, b), Math.max(a, b)];
              for (const lineage of lineages) {
                const effective = asStored(model.effective(lineage, 'loss')).filter(
                  (p) => p.step >= stepMin && p.step <= stepMax,
                );
                const q = { logNames: ['loss'], stepMin, stepMax, limit };
                const first = await store.series.queryMetrics(lineage, q);
                const got = first[0]?.points ?? [];
                checkSample(got, effective, limit);
                expect(await store.series.queryMetrics(lineage, q)).toEqual(first);
              }
            } finally {
              await store.close();
            }
          },
        ),
        { numRuns: 60 },
      );
    }, 240_000);

    it(
      'keeps a planted spike and dip of a 100,000-point series sampled to 100 points, also after the spike is overwritten',
      withStore(open, async (series) => {
        const run = { id: 7, projectId: 1 };
        for (let from = 0; from < 100_000; from += 20_000) {
          await series.appendMetrics(
            run,
            range('loss', from, from + 19_999, (s) => Math.sin(s / 500)),
          );
        }
        await series.appendMetrics(run, [{ logName: 'loss', step: 61_234, time: 1e9, value: 50 }]);
        await series.appendMetrics(run, [{ logName: 'loss', step: 7_777, time: 1e9, value: -50 }]);
        const q = { logNames: ['loss'], stepMin: 0, stepMax: 1e9, limit: 100 };
        let points = (await series.queryMetrics(own(7), q))[0]?.points ?? [];
        expect(points.length).toBeLessThanOrEqual(100);
        expect(points.find((p) => p.step === 61_234)?.value).toBe(50);
        expect(points.find((p) => p.step === 7_777)?.value).toBe(-50);
        await series.appendMetrics(run, [{ logName: 'loss', step: 61_234, time: 2e9, value: 0 }]);
        points = (await series.queryMetrics(own(7), q))[0]?.points ?? [];
        expect(points.some((p) => p.value === 50)).toBe(false);
        expect(points.find((p) => p.step === 7_777)?.value).toBe(-50);
      }),
    );
  });

  describe('sampled metric queries answer as samplePoints would', () => {
    it(
      'a range of fewer chunks than buckets gives samplePoints’ exact answer, and dense ranges fill the limit either way',
      withStore(open, async (series) => {
        const run = { id: 8, projectId: 1 };
        const wave = (s: number): number => Math.sin(s / 37) * 100 + (s % 11);
        for (let from = 0; from < 40_000; from += 10_000) {
          await series.appendMetrics(run, range('loss', from, from + 9_999, wave));
        }
        const all = asStored(range('loss', 0, 39_999, wave));
        // 1,000 steps are 8 chunks for 49 buckets (decoded), 40,000 steps 313 chunks (chunk extremes).
        for (const [stepMin, stepMax, limit] of [
          [5_000, 5_999, 100],
          [123, 4_567, 1_250],
          [0, 39_999, 100],
          [0, 39_999, 600],
        ] as const) {
          const got = (await series.queryMetrics(own(8), { logNames: ['loss'], stepMin, stepMax, limit }))[0]!.points;
          const effective = all.filter((p) => p.step >= stepMin && p.step <= stepMax);
          expect(got.length, `${stepMin}..${stepMax} limit ${limit}`).toBe(limit);
          if (stepMax - stepMin < 5_000) expect(got).toEqual(samplePoints(effective, limit));
        }
      }),
    );
  });

  describe('sampled metric queries over steps up to 2^53−1', () => {
    it(
      'read steps 0 and 2^53−1 back whole, by step range and sampled, each within 2 s',
      withStore(open, async (series) => {
        const points = [pt('loss', 0, 1, 1), pt('loss', HUGE, 2, 2)];
        await series.appendMetrics({ id: 1, projectId: 1 }, points);
        const model = new PointModel();
        model.apply(1, points);
        const both = asStored(model.effective(own(1), 'loss'));
        expect(
          await timedQuery(series, own(1), { logNames: ['loss'], stepMin: 0, stepMax: HUGE, limit: 2000 }),
        ).toEqual(both);
        expect(await timedQuery(series, own(1), { logNames: ['loss'], stepMin: 0, stepMax: HUGE, limit: 1 })).toEqual([
          both[0],
        ]);
        expect(await timedQuery(series, own(1), { logNames: ['loss'], stepMin: 1, stepMax: HUGE, limit: 10 })).toEqual([
          both[1],
        ]);
        await checkRanges(series, model, own(1), [
          [0, HUGE - 1, 3],
          [0, HUGE, 4],
          [2 ** 52, HUGE, 10_000],
        ]);
      }),
    );

    it(
      'sample 0..4,999 and a microsecond-timestamp step of 1e15 with the first, the last, the minimum and the maximum',
      withStore(open, async (series) => {
        const points = [
          ...range('loss', 0, 4999, (s) => Math.sin(s / 50)),
          pt('loss', 2500, 9e9, -9),
          pt('loss', 1e15, 1, 42),
        ];
        await series.appendMetrics({ id: 1, projectId: 1 }, points);
        const model = new PointModel();
        model.apply(1, points);
        await checkRanges(series, model, own(1), [
          [0, HUGE, 2000],
          [0, HUGE, 10],
          [0, 1e15, 10_000],
          [1, 1e15 - 1, 100],
          [1e15 - 5, HUGE, 5],
        ]);
      }),
    );

    it(
      'read a fork of a parent with huge steps through its lineage, each within 2 s',
      withStore(open, async (series) => {
        const parent = [...range('loss', 0, 999, (s) => s), pt('loss', 1e15, 1, -5), pt('loss', HUGE, 1, 7)];
        const child = range('loss', 1e15 + 1, 1e15 + 3000, (s) => (s % 7) - 3);
        await series.appendMetrics({ id: 1, projectId: 1 }, parent);
        await series.appendMetrics({ id: 2, projectId: 1 }, child);
        const model = new PointModel();
        model.apply(1, parent);
        model.apply(2, child);
        const lineage = [...own(2), { runId: 1, maxStep: 1e15 }];
        await checkRanges(series, model, lineage, [
          [0, HUGE, 2000],
          [0, HUGE, 10_000],
          [0, HUGE, 50],
          [500, 1e15 + 10, 20],
        ]);
      }),
    );

    it('agree with the model for random points anywhere in 0..2^53−1, forks included', async () => {
      const step = fc.oneof(fc.integer({ min: 0, max: HUGE }), fc.integer({ min: 0, max: 5000 }));
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ run: fc.constantFrom(1, 1, 2), steps: fc.array(step, { minLength: 1, maxLength: 60 }) }),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
          fc.integer({ min: 0, max: HUGE }),
          fc.array(
            fc.tuple(
              fc.integer({ min: 0, max: HUGE }),
              fc.integer({ min: 0, max: HUGE }),
              fc.integer({ min: 3, max: 80 }),
            ),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
          async (batches, forkStep, ranges) => {
            const store = await open();
            try {
              const model = new PointModel();
              for (const [i, bt] of batches.entries()) {
                const kept = bt.steps.filter((s) => bt.run === 1 || s > forkStep);
                const points = kept.map((s) => pt('loss', s, i, Math.sin(s % 1000) * 100));
                if (points.length === 0) continue;
                model.apply(bt.run, points);
                await store.series.appendMetrics({ id: bt.run, projectId: 1 }, points);
              }
              const queries = ranges.map(([a, b, limit]) => [Math.min(a, b), Math.max(a, b), limit] as const);
              for (const lineage of [own(1), [...own(2), { runId: 1, maxStep: forkStep }]]) {
                await checkRanges(store.series, model, lineage, [...queries, [0, HUGE, 40]]);
              }
            } finally {
              await store.close();
            }
          },
        ),
        { numRuns: 25 },
      );
    }, 240_000);
  });
}
