/**
 * SeriesStore conformance: sys/ series keyed by (step, time) (docs/api.md §4.2). The pluto client sends every system sample at step 0: each is kept, a re-sent
 * one is stored once, reads order them by step then time, and sampling and summaries treat
 * them like any other series. Other series keep one point per step.
 */
import type { MetricPoint, MetricPointInput } from '../../src/domain/types.js';
import { describe, expect, it } from 'vitest';
import {
  asStored,
  bruteSummary,
  expectSummary,
  own,
  PointModel,
  pt,
  withStore,
  type OpenSeriesStore,
} from './series-suite-helpers.js';

const RUN = { id: 1, projectId: 1 };
const ALL = [-1e15, 1e15] as const;
const T0 = 1_700_000_000_000;

/** Samples i = 0..n-1 of a sys/ metric at `step`, 4 s apart, value f(i). */
function samples(logName: string, step: number, n: number, f: (i: number) => number, from = 0): MetricPointInput[] {
  const out: MetricPointInput[] = [];
  for (let i = from; i < from + n; i++) out.push(pt(logName, step, T0 + 4_000 * i, f(i)));
  return out;
}

/** Returns the points shuffled deterministically (a fixed stride through the list). */
function shuffled<T>(items: readonly T[]): T[] {
  const out: T[] = [];
  const n = items.length;
  const stride = 97 % n === 0 ? 1 : 97;
  for (let i = 0; i < n; i++) out.push(items[(i * stride) % n]!);
  return out;
}

/** Asserts a sampled answer holds real points of `all` in step-then-time order, first, last, min and max. */
function expectSampled(got: MetricPoint[], all: MetricPoint[], limit: number): void {
  expect(got.length).toBeLessThanOrEqual(limit);
  const byKey = new Map(all.map((p) => [`${p.step}:${p.time}`, p]));
  for (const [i, p] of got.entries()) {
    expect(byKey.get(`${p.step}:${p.time}`), `${p.step}:${p.time} is a real point`).toEqual(p);
    const before = got[i - 1];
    if (before) expect(before.step < p.step || (before.step === p.step && before.time < p.time)).toBe(true);
  }
  expect(got[0]).toEqual(all[0]);
  expect(got.at(-1)).toEqual(all.at(-1));
  const finite = all.flatMap((p) => (p.value === null ? [] : [p.value]));
  expect(got.map((p) => p.value)).toContain(Math.min(...finite));
  expect(got.map((p) => p.value)).toContain(Math.max(...finite));
}

/** Registers the sys/ series tests. */
export function systemCases(open: OpenSeriesStore): void {
  describe('sys/ series keyed by step and time', () => {
    it(
      'keeps every sample sent at step 0 in time order, whatever the arrival order, with an exact summary',
      withStore(open, async (series) => {
        // 700 samples (over five chunks of one step), sent out of order in pluto-sized batches.
        const all = samples('sys/cpu.percentage', 0, 700, (i) => (i * 37) % 101);
        const sent = shuffled(all);
        for (let i = 0; i < sent.length; i += 2) await series.appendMetrics(RUN, sent.slice(i, i + 2));
        const model = new PointModel();
        model.apply(1, all);
        const want = model.effective(own(1), 'sys/cpu.percentage');
        expect(want).toHaveLength(700);
        expect(await series.readPoints(own(1), 'sys/cpu.percentage', ...ALL)).toEqual(asStored(want));
        const [summary] = await series.summarize(own(1));
        expectSummary(summary, bruteSummary(want), 'summary');
        expect(summary).toMatchObject({ lastStep: 0, lastValue: (699 * 37) % 101, points: 700 });
        expect((await series.projectSummaries(1, 'sys/cpu.percentage'))[0]?.count).toBe(700);
      }),
    );

    it(
      'stores a re-sent sample once, lets the later arrival win at the same step and time, and keeps one point per step elsewhere',
      withStore(open, async (series) => {
        const batch = [
          pt('sys/memory.percentage', 0, T0, 40),
          pt('sys/memory.percentage', 0, T0 + 4_000, 41),
          pt('loss', 0, T0, 1),
          pt('loss', 0, T0 + 4_000, 2),
        ];
        await series.appendMetrics(RUN, batch);
        await series.appendMetrics(RUN, batch);
        await series.appendMetrics(RUN, [pt('sys/memory.percentage', 0, T0 + 4_000, 45)]);
        expect(await series.readPoints(own(1), 'sys/memory.percentage', ...ALL)).toEqual(
          asStored([
            { step: 0, time: T0, value: 40 },
            { step: 0, time: T0 + 4_000, value: 45 },
          ]),
        );
        expect(await series.readPoints(own(1), 'loss', ...ALL)).toEqual(
          asStored([{ step: 0, time: T0 + 4_000, value: 2 }]),
        );
        const summaries = await series.summarize(own(1));
        expect(summaries.map((s) => [s.logName, s.points, s.lastValue])).toEqual([
          ['loss', 1, 2],
          ['sys/memory.percentage', 2, 45],
        ]);
      }),
    );

    it(
      'orders samples at several steps by step then time, and a sample sent before the last one moves no last value',
      withStore(open, async (series) => {
        const batches = [
          samples('sys/gpu.util', 1, 200, (i) => i),
          samples('sys/gpu.util', 0, 200, (i) => 1_000 + i, 200),
          [pt('sys/gpu.util', 1, T0 - 1, -5), pt('sys/gpu.util', 0, T0 + 4_000 * 450, 7)],
        ];
        const model = new PointModel();
        for (const b of batches) {
          await series.appendMetrics(RUN, b);
          model.apply(1, b);
        }
        const want = model.effective(own(1), 'sys/gpu.util');
        const got = await series.readPoints(own(1), 'sys/gpu.util', ...ALL);
        expect(got).toEqual(asStored(want));
        expect(got.slice(0, 201).every((p) => p.step === 0)).toBe(true);
        expect(await series.readPoints(own(1), 'sys/gpu.util', 1, 1)).toEqual(
          asStored(want.filter((p) => p.step === 1)),
        );
        expectSummary((await series.summarize(own(1)))[0], bruteSummary(want), 'summary');
        expect(await series.maxStep(own(1))).toBe(1);
      }),
    );

    it(
      'samples a sys/ series like any other: at most limit real points with the first, the last, the minimum and the maximum',
      withStore(open, async (series) => {
        const oneStep = samples('sys/cpu.percentage', 0, 3_000, (i) => Math.sin(i / 50) + (i === 1_234 ? 9 : 0));
        const manySteps: MetricPointInput[] = [];
        for (let step = 0; step < 60; step++) {
          manySteps.push(...samples('sys/disk.io', step, 50, (i) => step * 1_000 + ((i * 7) % 50), step * 50));
        }
        for (let i = 0; i < oneStep.length; i += 500) await series.appendMetrics(RUN, oneStep.slice(i, i + 500));
        for (let i = 0; i < manySteps.length; i += 500) await series.appendMetrics(RUN, manySteps.slice(i, i + 500));
        for (const [name, limit] of [
          ['sys/cpu.percentage', 50],
          ['sys/cpu.percentage', 4],
          ['sys/disk.io', 100],
          ['sys/disk.io', 2_000],
        ] as const) {
          const all = await series.readPoints(own(1), name, ...ALL);
          const [answer] = await series.queryMetrics(own(1), { logNames: [name], stepMin: 0, stepMax: 1e9, limit });
          expectSampled(answer?.points ?? [], all, limit);
        }
      }),
    );

    it(
      'a fork sees its parent’s samples up to the fork step beside its own',
      withStore(open, async (series) => {
        await series.appendMetrics(RUN, [
          ...samples('sys/cpu.percentage', 0, 3, (i) => i),
          ...samples('sys/cpu.percentage', 5, 2, (i) => 50 + i, 3),
        ]);
        await series.appendMetrics(
          { id: 2, projectId: 1 },
          samples('sys/cpu.percentage', 0, 2, (i) => 90 + i, 10),
        );
        const lineage = [
          { runId: 2, maxStep: Infinity },
          { runId: 1, maxStep: 4 },
        ];
        const points = await series.readPoints(lineage, 'sys/cpu.percentage', ...ALL);
        expect(points.map((p) => p.value)).toEqual([0, 1, 2, 100, 101]);
        expect((await series.summarize(lineage))[0]).toMatchObject({ points: 5, lastStep: 0, lastValue: 101 });
      }),
    );
  });
}
