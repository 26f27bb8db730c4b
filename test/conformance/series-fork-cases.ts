/** SeriesStore conformance: fork lineages, sampled queries and the highest step. */
import { describe, expect, it } from 'vitest';
import type { LineageLink } from '../../src/domain/types.js';
import type { SeriesStore } from '../../src/store/series-store.js';
import {
  asStored,
  bruteSummary,
  expectSummary,
  own,
  PointModel,
  pt,
  range,
  withStore,
  type OpenSeriesStore,
} from './series-suite-helpers.js';

const ALL = [0, 1e15] as const;
const child: LineageLink[] = [
  { runId: 2, maxStep: Infinity },
  { runId: 1, maxStep: 50 },
];

/** Writes the parent (run 1, steps 0..100, value = step) and the child's steps 51..80. */
async function forkAt50(s: SeriesStore, model: PointModel): Promise<void> {
  const parent = range('loss', 0, 100, (step) => step);
  const own2 = range('loss', 51, 80, (step) => 1000 + step);
  await s.appendMetrics({ id: 1, projectId: 1 }, parent);
  await s.appendMetrics({ id: 2, projectId: 1 }, own2);
  model.apply(1, parent);
  model.apply(2, own2);
}

/** Asserts readPoints, queryMetrics and summarize agree with the model for one metric. */
async function expectEffective(
  s: SeriesStore,
  model: PointModel,
  lineage: LineageLink[],
  logName: string,
): Promise<void> {
  const expected = model.effective(lineage, logName);
  expect(await s.readPoints(lineage, logName, ...ALL)).toEqual(asStored(expected));
  const query = await s.queryMetrics(lineage, { logNames: [logName], stepMin: 0, stepMax: 1e15, limit: 10_000 });
  expect(query).toEqual([{ logName, points: asStored(expected) }]);
  const [summary] = await s.summarize(lineage, [logName]);
  expectSummary(summary, bruteSummary(expected), `${logName} through ${JSON.stringify(lineage)}`);
  expect(summary?.runId).toBe(lineage[0]?.runId);
}

/** Registers the fork and query tests. */
export function forkCases(open: OpenSeriesStore): void {
  describe('forks', () => {
    it(
      'a fork at step 50 of a parent with steps 0..100 and its own steps 51..80 reads steps 0..80',
      withStore(open, async (s) => {
        const model = new PointModel();
        await forkAt50(s, model);
        const points = await s.readPoints(child, 'loss', ...ALL);
        expect(points.map((p) => p.step)).toEqual(Array.from({ length: 81 }, (_, i) => i));
        expect(points.map((p) => p.value)).toEqual(Array.from({ length: 81 }, (_, i) => (i <= 50 ? i : 1000 + i)));
        await expectEffective(s, model, child, 'loss');
        expect((await s.summarize(child))[0]).toMatchObject({ count: 81, points: 81, lastStep: 80, lastValue: 1080 });
        expect(await s.maxStep(child)).toBe(80);
        expect(await s.maxStep(own(1))).toBe(100);
      }),
    );

    it(
      'a child point at a step at or before the fork step replaces the inherited one',
      withStore(open, async (s) => {
        const model = new PointModel();
        await forkAt50(s, model);
        const replacement = [pt('loss', 10, 0, -5), pt('loss', 50, 0, NaN)];
        await s.appendMetrics({ id: 2, projectId: 1 }, replacement);
        model.apply(2, replacement);
        await expectEffective(s, model, child, 'loss');
        expect((await s.readPoints(child, 'loss', 10, 10))[0]?.value).toBe(-5);
        expect((await s.summarize(child))[0]).toMatchObject({ min: -5, count: 80, points: 81 });
        await expectEffective(s, model, own(1), 'loss');
      }),
    );

    it(
      'a three-generation lineage sees each generation up to its fork step',
      withStore(open, async (s) => {
        const model = new PointModel();
        const writes: [number, ReturnType<typeof range>][] = [
          [1, range('m', 0, 100, (step) => step)],
          [2, [...range('m', 61, 90, (step) => 2000 + step), pt('m', 20, 0, -20)]],
          [3, range('m', 76, 85, (step) => 3000 + step)],
          [1, range('only/parent', 0, 100, (step) => step / 2)],
        ];
        for (const [runId, points] of writes) {
          await s.appendMetrics({ id: runId, projectId: 1 }, points);
          model.apply(runId, points);
        }
        const lineage = [
          { runId: 3, maxStep: Infinity },
          { runId: 2, maxStep: 75 },
          { runId: 1, maxStep: 60 },
        ];
        await expectEffective(s, model, lineage, 'm');
        await expectEffective(s, model, lineage, 'only/parent');
        const steps = (await s.readPoints(lineage, 'm', ...ALL)).map((p) => p.step);
        expect(steps).toEqual(Array.from({ length: 86 }, (_, i) => i));
        expect(await s.maxStep(lineage)).toBe(85);
        expect((await s.summarize(lineage)).map((x) => [x.logName, x.points])).toEqual([
          ['m', 86],
          ['only/parent', 61],
        ]);
      }),
    );

    it(
      'the highest step of a fork without points of its own is its fork step',
      withStore(open, async (s) => {
        await s.appendMetrics(
          { id: 1, projectId: 1 },
          range('loss', 0, 100, (step) => step),
        );
        expect(await s.maxStep(child)).toBe(50);
        expect(await s.maxStep(own(2))).toBeNull();
        expect(await s.summarize(own(2))).toEqual([]);
      }),
    );
  });

  describe('metric queries', () => {
    it.each([
      {
        name: 'every metric with points in range, by name',
        q: {},
        expected: { a: [0, 1, 2, 3, 4], 'g/b': [2, 3, 4], 'g/c': [0] },
      },
      {
        name: 'only the listed names',
        q: { logNames: ['g/c', 'a', 'nope'] },
        expected: { a: [0, 1, 2, 3, 4], 'g/c': [0] },
      },
      { name: 'only the metrics of one group', q: { logGroup: 'g' }, expected: { 'g/b': [2, 3, 4], 'g/c': [0] } },
      {
        name: 'only the steps in range, omitting metrics without any',
        q: { stepMin: 1, stepMax: 3 },
        expected: { a: [1, 2, 3], 'g/b': [2, 3] },
      },
    ])('a query returns $name', ({ q, expected }) =>
      withStore(open, async (s) => {
        await s.appendMetrics({ id: 1, projectId: 1 }, [
          ...range('a', 0, 4, (x) => x),
          ...range('g/b', 2, 4, (x) => x),
          pt('g/c', 0, 0, 1),
        ]);
        const result = await s.queryMetrics(own(1), { stepMin: 0, stepMax: 1e15, limit: 100, ...q });
        expect(Object.fromEntries(result.map((r) => [r.logName, r.points.map((p) => p.step)]))).toEqual(expected);
        expect(result.map((r) => r.logName)).toEqual(Object.keys(expected));
      })(),
    );

    it(
      'summaries of forks of a many-chunk parent, cut inside a chunk, match the brute-force effective series',
      withStore(open, async (s) => {
        const model = new PointModel();
        const write = async (run: number, points: ReturnType<typeof range>): Promise<void> => {
          await s.appendMetrics({ id: run, projectId: 1 }, points);
          model.apply(run, points);
        };
        await write(
          1,
          range('loss', 0, 4_999, (step) => Math.cos(step / 300) * 10 + (step % 7 === 0 ? NaN : 0)),
        );
        await write(
          2,
          range('loss', 2_601, 3_200, (step) => step / 100),
        );
        await write(
          3,
          range('loss', 1_000, 1_200, (step) => -step),
        );
        const lineages: LineageLink[][] = [
          [
            { runId: 2, maxStep: Infinity },
            { runId: 1, maxStep: 2_600 },
          ],
          [
            { runId: 3, maxStep: Infinity },
            { runId: 1, maxStep: 1_250 },
          ],
          [
            { runId: 4, maxStep: Infinity },
            { runId: 2, maxStep: 2_700 },
            { runId: 1, maxStep: 2_600 },
          ],
        ];
        for (const lineage of lineages) {
          const [summary] = await s.summarize(lineage);
          expectSummary(summary, bruteSummary(model.effective(lineage, 'loss')), JSON.stringify(lineage));
        }
      }),
      120_000,
    );

    it(
      'a query of a 200,000-point series with limit 500 keeps first, last and spikes, deterministically',
      withStore(open, async (s) => {
        const n = 200_000;
        const points = range('big', 0, n - 1, (step) => Math.sin(step / 5000));
        points[123_457] = pt('big', 123_457, 123_457, 50);
        points[77_777] = pt('big', 77_777, 77_777, -50);
        await s.appendMetrics({ id: 1, projectId: 1 }, points);
        const q = { stepMin: 0, stepMax: 1e15, limit: 500 };
        const started = performance.now();
        const first = await s.queryMetrics(own(1), q);
        const elapsed = performance.now() - started;
        const second = await s.queryMetrics(own(1), q);
        const sampled = first[0]?.points ?? [];
        expect(sampled.length).toBeLessThanOrEqual(500);
        expect(sampled.length).toBeGreaterThan(400);
        expect(sampled[0]?.step).toBe(0);
        expect(sampled[sampled.length - 1]?.step).toBe(n - 1);
        expect(sampled.find((p) => p.step === 123_457)?.value).toBe(50);
        expect(sampled.find((p) => p.step === 77_777)?.value).toBe(-50);
        expect(sampled.map((p) => p.step)).toEqual([...sampled.map((p) => p.step)].sort((a, b) => a - b));
        expect(second).toEqual(first);
        if (process.env.STEPWISE_TIMINGS)
          console.info(`queryMetrics of ${n} points, limit 500: ${elapsed.toFixed(1)} ms`);
      }),
      120_000,
    );
  });
}
