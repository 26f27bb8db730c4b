/** SeriesStore conformance: metric writes, deduplication, summaries, names. */
import type { MetricPointInput } from '../../src/domain/types.js';
import { describe, expect, it } from 'vitest';
import {
  asStored,
  bruteSummary,
  expectClose,
  expectSummary,
  own,
  PointModel,
  pt,
  range,
  type OpenSeriesStore,
} from './series-suite-helpers.js';

const RUN = { id: 1, projectId: 1 };
const ALL = [-1e15, 1e15] as const;

const dedupCases: { name: string; batches: MetricPointInput[][]; expected: { time: number; value: number } }[] = [
  {
    name: 'a later time replaces the stored point',
    batches: [[pt('m', 1, 10, 1)], [pt('m', 1, 20, 2)]],
    expected: { time: 20, value: 2 },
  },
  {
    name: 'an earlier time leaves the stored point',
    batches: [[pt('m', 1, 20, 1)], [pt('m', 1, 10, 2)]],
    expected: { time: 20, value: 1 },
  },
  {
    name: 'an equal time lets the later write win',
    batches: [[pt('m', 1, 10, 1)], [pt('m', 1, 10, 2)]],
    expected: { time: 10, value: 2 },
  },
  {
    name: 'the later line of one batch wins at equal time',
    batches: [[pt('m', 1, 10, 1), pt('m', 1, 10, 2)]],
    expected: { time: 10, value: 2 },
  },
  {
    name: 'the later time of one batch wins whatever the line order',
    batches: [[pt('m', 1, 20, 1), pt('m', 1, 10, 2)]],
    expected: { time: 20, value: 1 },
  },
  {
    name: 'a NaN with a later time replaces a finite value',
    batches: [[pt('m', 1, 10, 5)], [pt('m', 1, 11, NaN)]],
    expected: { time: 11, value: NaN },
  },
];

/** Registers the metric write and summary tests. */
export function metricCases(open: OpenSeriesStore): void {
  describe('metric writes', () => {
    it.each(dedupCases)('$name', async ({ batches, expected }) => {
      const store = await open();
      try {
        for (const b of batches) await store.series.appendMetrics(RUN, b);
        const points = await store.series.readPoints(own(1), 'm', ...ALL);
        expect(points).toEqual(asStored([{ step: 1, ...expected }]));
        const [summary] = await store.series.summarize(own(1));
        expectSummary(summary, bruteSummary([{ step: 1, ...expected }]), 'summary');
      } finally {
        await store.close();
      }
    });

    it('re-sending a batch changes neither the points nor the summary', async () => {
      const store = await open();
      try {
        const batch = [...range('a', 0, 50, (s) => Math.sin(s)), pt('a', 7, 100, 3), pt('b', 1, 1, NaN)];
        await store.series.appendMetrics(RUN, batch);
        const before = [await store.series.summarize(own(1)), await store.series.readPoints(own(1), 'a', ...ALL)];
        await store.series.appendMetrics(RUN, batch);
        await store.series.appendMetrics(RUN, batch.slice(10, 20));
        const after = [await store.series.summarize(own(1)), await store.series.readPoints(own(1), 'a', ...ALL)];
        expect(after).toEqual(before);
        expect((await store.series.projectSummaries(1, 'a'))[0]?.count).toBe(51);
      } finally {
        await store.close();
      }
    });

    it('non-finite values are stored as null with a flag and left out of the moments', async () => {
      const store = await open();
      try {
        await store.series.appendMetrics(RUN, [
          pt('m', 0, 0, 1),
          pt('m', 1, 1, NaN),
          pt('m', 2, 2, Infinity),
          pt('m', 3, 3, -Infinity),
          pt('m', 4, 4, 3),
          pt('m', 5, 5, NaN),
        ]);
        const points = await store.series.readPoints(own(1), 'm', ...ALL);
        expect(points.map((p) => [p.value, p.flag])).toEqual([
          [1, null],
          [null, 'NaN'],
          [null, 'Infinity'],
          [null, '-Infinity'],
          [3, null],
          [null, 'NaN'],
        ]);
        const [s] = await store.series.summarize(own(1));
        expect(s).toMatchObject({
          count: 2,
          mean: 2,
          m2: 2,
          min: 1,
          max: 3,
          lastStep: 4,
          lastValue: 3,
          points: 6,
          firstStep: 0,
          maxStep: 5,
        });
      } finally {
        await store.close();
      }
    });

    it('overwriting stored steps with different values keeps the summary exact', async () => {
      const store = await open();
      const model = new PointModel();
      try {
        const batches = [
          range('m', 0, 20, (s) => s * 1.5),
          [pt('m', 5, 100, 1000), pt('m', 20, 100, NaN)],
          [pt('m', 3, 3, 4.5)],
          [pt('m', 0, 50, -7)],
        ];
        for (const b of batches) {
          await store.series.appendMetrics(RUN, b);
          model.apply(1, b);
          const [s] = await store.series.summarize(own(1));
          expectSummary(s, bruteSummary(model.effective(own(1), 'm')), 'after batch');
        }
      } finally {
        await store.close();
      }
    });

    it('a later time with an unchanged value moves the last time only', async () => {
      const store = await open();
      try {
        await store.series.appendMetrics(
          RUN,
          range('m', 0, 3, (s) => s),
        );
        await store.series.appendMetrics(RUN, [pt('m', 0, 90, 0), pt('m', 2, 80, 2)]);
        const [s] = await store.series.summarize(own(1));
        expect(s).toMatchObject({ count: 4, points: 4, firstTime: 1, lastTime: 90, mean: 1.5 });
      } finally {
        await store.close();
      }
    });

    it('the variance of values near 1e9 with small noise stays within 1e-9 of two-pass over many batches and overwrites', async () => {
      const store = await open();
      try {
        let seed = 42;
        const noise = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 0.01;
        const values = Array.from({ length: 6000 }, () => 1e9 + noise());
        const expectTwoPass = async (n: number): Promise<void> => {
          const deviations = values.slice(0, n).map((v) => v - 1e9);
          const meanDev = deviations.reduce((a, d) => a + d, 0) / n;
          const variance = deviations.reduce((a, d) => a + (d - meanDev) ** 2, 0) / n;
          const [s] = await store.series.summarize(own(1));
          expect(s?.count).toBe(n);
          expectClose((s?.m2 ?? 0) / n, variance, 0, `variance of ${n}`);
          expectClose(s?.mean ?? 0, 1e9 + meanDev, 0, `mean of ${n}`);
        };
        const send = (from: number, to: number, time: number) =>
          store.series.appendMetrics(
            RUN,
            values.slice(from, to).map((v, i) => pt('m', from + i, time, v)),
          );
        for (let b = 0; b < 100; b++) await send(b * 50, b * 50 + 50, b);
        await expectTwoPass(5000);
        for (const step of [0, 17, 2500, 4999]) values[step] = 1e9 + noise();
        for (const step of [0, 17, 2500, 4999]) await send(step, step + 1, 1000);
        await expectTwoPass(5000);
        for (let b = 100; b < 120; b++) await send(b * 50, b * 50 + 50, b);
        await expectTwoPass(6000);
      } finally {
        await store.close();
      }
    });

    it.each([
      { logName: 'loss', logGroup: '' },
      { logName: 'train/loss', logGroup: 'train' },
      { logName: 'a/b/c', logGroup: 'a/b' },
    ])('the series $logName belongs to the group "$logGroup"', async ({ logName, logGroup }) => {
      const store = await open();
      try {
        await store.series.appendMetrics(RUN, [pt(logName, 0, 0, 1)]);
        expect((await store.series.summarize(own(1)))[0]).toMatchObject({ runId: 1, logName, logGroup });
      } finally {
        await store.close();
      }
    });

    it('project summaries list the stored rows of every run of the project only', async () => {
      const store = await open();
      try {
        await store.series.appendMetrics(
          { id: 1, projectId: 1 },
          range('m', 0, 9, (s) => s),
        );
        await store.series.appendMetrics(
          { id: 2, projectId: 1 },
          range('m', 0, 4, () => 7),
        );
        await store.series.appendMetrics(
          { id: 3, projectId: 2 },
          range('m', 0, 4, () => 7),
        );
        await store.series.appendMetrics(
          { id: 2, projectId: 1 },
          range('other', 0, 4, () => 7),
        );
        const rows = (await store.series.projectSummaries(1, 'm')).sort((a, b) => a.runId - b.runId);
        expect(rows.map((r) => [r.runId, r.count, r.mean, r.lastValue])).toEqual([
          [1, 10, 4.5, 9],
          [2, 5, 7, 7],
        ]);
      } finally {
        await store.close();
      }
    });

    it('summaries come sorted by name in code point order and can be limited to names', async () => {
      const store = await open();
      try {
        await store.series.appendMetrics(
          RUN,
          ['b', 'B', 'a/x', 'é', 'A'].map((n) => pt(n, 0, 0, 1)),
        );
        expect((await store.series.summarize(own(1))).map((s) => s.logName)).toEqual(['A', 'B', 'a/x', 'b', 'é']);
        expect((await store.series.summarize(own(1), ['b', 'zz', 'A'])).map((s) => s.logName)).toEqual(['A', 'b']);
        expect(await store.series.summarize(own(1), [])).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
}
