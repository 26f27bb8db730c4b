/** SeriesStore conformance: random batches against a brute-force model of docs/api.md §4.1. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineageLink, MetricPointInput } from '../../src/domain/types.js';
import {
  asStored,
  bruteSummary,
  expectSummary,
  own,
  PointModel,
  type OpenSeriesStore,
} from './series-suite-helpers.js';

const NAMES = ['loss', 'val/acc'] as const;
/** A sys/ series (keyed by step and time, docs/api.md §4.2) beside an ordinary one. */
const SYSTEM_NAMES = ['sys/cpu', 'loss'] as const;

const value = fc
  .oneof(
    { weight: 6, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 3 }) },
    { weight: 2, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
  )
  .map((v) => (v === 0 ? 0 : v));

/** Points of the names with steps 0..maxStep and times 0..maxTime. */
const pointOf = (names: readonly string[], maxStep: number, maxTime: number) =>
  fc.record({
    run: fc.constantFrom(1, 2),
    logName: fc.constantFrom(...names),
    step: fc.integer({ min: 0, max: maxStep }),
    time: fc.integer({ min: 0, max: maxTime }),
    value,
  });

type Point = { run: number } & MetricPointInput;

/** A batch of new points, or a re-send of an earlier batch (by index modulo their number). */
const actionOf = (point: fc.Arbitrary<Point>) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('batch' as const),
        points: fc.array(point, { minLength: 1, maxLength: 25 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('resend' as const), index: fc.nat() }) },
  );

/**
 * The deadline of each property test: a guard against a hang, not a speed target. The work is
 * fixed (150 or 60 runs of about 70 store calls each): on PostgreSQL 3-18 s in earlier CI runs,
 * 137 s and 192 s on this 2-core machine at a load average of about 15 (several suites at once).
 */
const PROPERTY_TIMEOUT_MS = 600_000;

/** Registers the property tests. */
export function propertyCases(open: OpenSeriesStore): void {
  describe('random batches', () => {
    it(
      'every summary and point read matches a brute-force computation over the effective series',
      async ({ signal }) => {
        await checkRandomBatches(open, NAMES, actionOf(pointOf(NAMES, 30, 6)), 30, 150, signal);
      },
      PROPERTY_TIMEOUT_MS,
    );

    it(
      'with a sys/ series sampled many times per step, every summary and point read matches the model',
      async ({ signal }) => {
        await checkRandomBatches(open, SYSTEM_NAMES, actionOf(pointOf(SYSTEM_NAMES, 3, 60)), 3, 60, signal);
      },
      PROPERTY_TIMEOUT_MS,
    );
  });
}

/** [stepMin, stepMax, limit] of the reads whose countMetricPoints is checked: whole, cut by a step range, capped by limit. */
const COUNTED_READS: [number, number, number][] = [
  [0, 1e15, 10_000],
  [1, 2, 10_000],
  [3, 17, 10_000],
  [5, 1e15, 4],
  [0, 9, 1],
];

/**
 * Asserts the store against the model after `runs` random action lists, for forks at 0..maxFork.
 * Stops at the next store call once `signal` aborts (the test timed out): fast-check would
 * otherwise go on in the background, emptying the shared PostgreSQL database under the
 * file's next tests and failing them too.
 */
async function checkRandomBatches(
  open: OpenSeriesStore,
  names: readonly string[],
  action: fc.Arbitrary<{ kind: 'batch'; points: Point[] } | { kind: 'resend'; index: number }>,
  maxFork: number,
  runs: number,
  signal: AbortSignal,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(action, { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 0, max: maxFork }),
      async (actions, forkStep) => {
        signal.throwIfAborted();
        const store = await open();
        try {
          const model = new PointModel();
          const sent: Point[][] = [];
          for (const a of actions) {
            signal.throwIfAborted();
            const batch = a.kind === 'batch' ? a.points : sent[a.index % Math.max(1, sent.length)];
            if (!batch) continue;
            sent.push(batch);
            for (const run of [1, 2]) {
              const mine = batch
                .filter((p) => p.run === run)
                .map(({ logName, step, time, value: v }) => ({ logName, step, time, value: v }));
              if (mine.length === 0) continue;
              await store.series.appendMetrics({ id: run, projectId: 1 }, mine);
              model.apply(run, mine);
            }
          }
          const lineages: LineageLink[][] = [
            own(1),
            own(2),
            [
              { runId: 2, maxStep: Infinity },
              { runId: 1, maxStep: forkStep },
            ],
          ];
          for (const lineage of lineages) {
            signal.throwIfAborted();
            const summaries = await store.series.summarize(lineage);
            const expectedNames = names.filter((n) => model.effective(lineage, n).length > 0);
            expect(summaries.map((s) => s.logName)).toEqual([...expectedNames].sort());
            for (const name of expectedNames) {
              const effective = model.effective(lineage, name);
              expectSummary(
                summaries.find((s) => s.logName === name),
                bruteSummary(effective),
                `${name} ${JSON.stringify(lineage)}`,
              );
              expect(await store.series.readPoints(lineage, name, 0, 1e15)).toEqual(asStored(effective));
            }
            for (const [stepMin, stepMax, limit] of COUNTED_READS) {
              const inRange = (n: string) =>
                model.effective(lineage, n).filter((p) => p.step >= stepMin && p.step <= stepMax).length;
              const expected = names.reduce((sum, n) => sum + Math.min(limit, inRange(n)), 0);
              const q = { stepMin, stepMax, limit };
              expect(await store.series.countMetricPoints(lineage, q), JSON.stringify(q)).toBe(expected);
              const total = names.reduce((sum, n) => sum + inRange(n), 0);
              expect(await store.series.tallyMetricPoints(lineage, q), JSON.stringify(q)).toEqual({
                answered: expected,
                total,
              });
            }
            const highest = Math.max(-1, ...expectedNames.map((n) => model.effective(lineage, n).at(-1)?.step ?? -1));
            expect(await store.series.maxStep(lineage)).toBe(highest < 0 ? null : highest);
          }
          for (const name of names) {
            const stored = await store.series.projectSummaries(1, name);
            for (const run of [1, 2]) {
              const effective = model.effective(own(run), name);
              const row = stored.find((s) => s.runId === run);
              if (effective.length === 0) expect(row).toBeUndefined();
              else expectSummary(row, bruteSummary(effective), `stored ${name} of run ${run}`);
            }
          }
        } finally {
          await store.close();
        }
      },
    ),
    { numRuns: runs },
  );
}
