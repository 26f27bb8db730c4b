/** SeriesStore conformance: ranking runs of a project in the store (leaderboards). */
import type { SeriesSummary } from '../../src/domain/types.js';
import { describe, expect, it } from 'vitest';
import { AGGREGATIONS, DIRECTIONS, sortRanked, type Aggregation } from '../../src/domain/aggregation.js';
import { withStore, type OpenSeriesStore } from './series-suite-helpers.js';

const valueOf = (s: SeriesSummary, a: Aggregation): number | null => {
  if (s.count === 0) return null;
  return { MIN: s.min, MAX: s.max, AVG: s.mean, LAST: s.lastValue, VARIANCE: s.m2 / s.count }[a];
};

/** Registers the ranking cases. */
export function rankCases(open: OpenSeriesStore): void {
  describe('ranking the runs of a project', () => {
    it(
      'matches a sort of the stored summaries for every aggregation, direction and page, ties by runId',
      withStore(open, async (series) => {
        // 40 runs with repeating values (ties), one run with only NaN, one in another project.
        for (let run = 1; run <= 40; run++) {
          const values = [run % 7, (run * 3) % 5, run % 4 === 0 ? NaN : (run % 3) - 1];
          await series.appendMetrics(
            { id: run, projectId: 1 },
            values.map((value, step) => ({ logName: 'acc', step, time: step, value })),
          );
        }
        await series.appendMetrics({ id: 41, projectId: 1 }, [{ logName: 'acc', step: 0, time: 0, value: NaN }]);
        await series.appendMetrics({ id: 42, projectId: 2 }, [{ logName: 'acc', step: 0, time: 0, value: -100 }]);
        const summaries = await series.projectSummaries(1, 'acc');
        for (const aggregation of AGGREGATIONS) {
          for (const direction of DIRECTIONS) {
            const expected = sortRanked(
              summaries.flatMap((s) => {
                const value = valueOf(s, aggregation);
                return value === null ? [] : [{ runId: s.runId, value }];
              }),
              direction,
            );
            for (const [limit, offset] of [
              [20, 0],
              [7, 5],
              [100, 35],
            ] as const) {
              const got = await series.rankRuns(
                { projectId: 1, logName: 'acc', aggregation, direction, limit, offset },
                [],
              );
              const label = `${aggregation} ${direction} ${limit}@${offset}`;
              expect(got.total, label).toBe(40);
              const want = expected.slice(offset, offset + limit);
              expect(
                got.rows.map((r) => r.runId),
                label,
              ).toEqual(want.map((r) => r.runId));
              got.rows.forEach((r, i) => expect(r.value).toBeCloseTo(want[i]!.value, 12));
            }
          }
        }
      }),
    );

    it(
      'leaves out excluded runs and unknown metrics',
      withStore(open, async (series) => {
        for (let run = 1; run <= 5; run++) {
          await series.appendMetrics({ id: run, projectId: 1 }, [{ logName: 'acc', step: 0, time: 0, value: run }]);
        }
        const q = {
          projectId: 1,
          logName: 'acc',
          aggregation: 'MAX',
          direction: 'DESC',
          limit: 10,
          offset: 0,
        } as const;
        const got = await series.rankRuns(q, [5, 2]);
        expect(got).toEqual({
          rows: [
            { runId: 4, value: 4 },
            { runId: 3, value: 3 },
            { runId: 1, value: 1 },
          ],
          total: 3,
        });
        expect(await series.rankRuns({ ...q, logName: 'nope' }, [])).toEqual({ rows: [], total: 0 });
      }),
    );

    it(
      'ranks only the given runs, any number of them, with the total over those runs',
      withStore(open, async (series) => {
        for (let run = 1; run <= 6; run++) {
          await series.appendMetrics({ id: run, projectId: 1 }, [{ logName: 'acc', step: 0, time: 0, value: run }]);
        }
        await series.appendMetrics({ id: 7, projectId: 2 }, [{ logName: 'acc', step: 0, time: 0, value: 7 }]);
        const q = {
          projectId: 1,
          logName: 'acc',
          aggregation: 'LAST',
          direction: 'DESC',
          limit: 2,
          offset: 0,
        } as const;
        // 7 is another project's run; 40,000 unknown ids make a set larger than any engine's parameter limit.
        const runIds = [2, 5, 3, 7, ...Array.from({ length: 40_000 }, (_, i) => 1000 + i)];
        expect(await series.rankRuns({ ...q, runIds }, [])).toEqual({
          rows: [
            { runId: 5, value: 5 },
            { runId: 3, value: 3 },
          ],
          total: 3,
        });
        expect(await series.rankRuns({ ...q, runIds, offset: 2 }, [])).toEqual({
          rows: [{ runId: 2, value: 2 }],
          total: 3,
        });
        expect(await series.rankRuns({ ...q, runIds, offset: 5 }, [])).toEqual({ rows: [], total: 3 });
        expect(await series.rankRuns({ ...q, runIds, limit: 10 }, [5])).toEqual({
          rows: [
            { runId: 3, value: 3 },
            { runId: 2, value: 2 },
          ],
          total: 2,
        });
        expect(await series.rankRuns({ ...q, runIds: [] }, [])).toEqual({ rows: [], total: 0 });
      }),
    );
  });
}
