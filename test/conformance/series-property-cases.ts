/** SeriesStore conformance: random batches against a brute-force model of the contract. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineageLink } from '../../src/domain/types.js';
import type { MetricPointInput } from '../../src/store/series-store.js';
import {
  asStored,
  bruteSummary,
  expectSummary,
  own,
  PointModel,
  type OpenSeriesStore,
} from './series-suite-helpers.js';

const NAMES = ['loss', 'val/acc'] as const;

const value = fc
  .oneof(
    { weight: 6, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 3 }) },
    { weight: 2, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
  )
  .map((v) => (v === 0 ? 0 : v));

const point = fc.record({
  run: fc.constantFrom(1, 2),
  logName: fc.constantFrom(...NAMES),
  step: fc.integer({ min: 0, max: 30 }),
  time: fc.integer({ min: 0, max: 6 }),
  value,
});

type Point = { run: number } & MetricPointInput;

/** A batch of new points, or a re-send of an earlier batch (by index modulo their number). */
const action = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      points: fc.array(point, { minLength: 1, maxLength: 25 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resend' as const), index: fc.nat() }) },
);

/** Registers the property test. */
export function propertyCases(open: OpenSeriesStore): void {
  describe('random batches', () => {
    it('every summary and point read matches a brute-force computation over the effective series', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(action, { minLength: 1, maxLength: 12 }),
          fc.integer({ min: 0, max: 30 }),
          async (actions, forkStep) => {
            const store = await open();
            try {
              const model = new PointModel();
              const sent: Point[][] = [];
              for (const a of actions) {
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
                const summaries = await store.series.summarize(lineage);
                const expectedNames = NAMES.filter((n) => model.effective(lineage, n).length > 0);
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
                const highest = Math.max(
                  -1,
                  ...expectedNames.map((n) => model.effective(lineage, n).at(-1)?.step ?? -1),
                );
                expect(await store.series.maxStep(lineage)).toBe(highest < 0 ? null : highest);
              }
              for (const name of NAMES) {
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
        { numRuns: 150 },
      );
    }, 120_000);
  });
}
