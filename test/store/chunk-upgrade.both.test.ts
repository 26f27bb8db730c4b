/**
 * A database written before chunks (schema of migration 7: one metric_points row per point)
 * upgrades on start: its points are moved into chunks in batches, an interrupted upgrade
 * resumes, and every read answers what the same points written after the upgrade answer.
 */
import { describe, expect, it } from 'vitest';
import { logGroupOf } from '../../src/domain/log-group.js';
import type { LineageLink, MetricPointInput } from '../../src/domain/types.js';
import { migrate } from '../../src/store/migrations/index.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { encodeValue, SERIES_COLUMNS, type SeriesRow } from '../../src/store/sql/metrics/series-row.js';
import { rawEngines } from '../helpers/test-database.js';

const engines = rawEngines('stepwise-chunk-upgrade-');

/** Points of a few series: long and short, NaN and ±Infinity, wide step gaps, two runs. */
function fixture(): { run: number; points: MetricPointInput[] }[] {
  const loss: MetricPointInput[] = [];
  for (let s = 0; s < 5000; s++) loss.push({ logName: 'loss', step: s * 3, time: 1000 + s, value: Math.sin(s / 40) });
  const odd: MetricPointInput[] = [NaN, Infinity, -Infinity, 1.5, -0.25, 1e300].map((value, i) => ({
    logName: 'train/odd',
    step: i === 5 ? 2 ** 53 - 1 : i * 1e12,
    time: i,
    value,
  }));
  const child: MetricPointInput[] = [];
  for (let s = 7000; s < 9000; s++) child.push({ logName: 'loss', step: s, time: s, value: s % 11 });
  return [
    { run: 1, points: [...loss, ...odd] },
    { run: 2, points: child },
  ];
}

const lineages: LineageLink[][] = [
  [{ runId: 1, maxStep: Infinity }],
  [
    { runId: 2, maxStep: Infinity },
    { runId: 1, maxStep: 6000 },
  ],
];

/** Everything the store answers about the fixture's series. */
async function readAll(series: SqlSeriesStore) {
  const out: unknown[] = [];
  for (const lineage of lineages) {
    for (const name of ['loss', 'train/odd']) out.push(await series.readPoints(lineage, name, 0, 2 ** 53 - 1));
    for (const limit of [10, 100, 2000]) {
      out.push(await series.queryMetrics(lineage, { stepMin: 0, stepMax: 2 ** 53 - 1, limit }));
      out.push(await series.queryMetrics(lineage, { stepMin: 1000, stepMax: 12_000, limit }));
    }
    out.push(await series.summarize(lineage));
    out.push(await series.maxStep(lineage));
  }
  return out;
}

describe.each(engines)('upgrading metric points to chunks ($name)', ({ open }) => {
  it('moves every point in batches, resumes after an interruption, and reads back identical', async () => {
    const expected = await open();
    const legacy = await open();
    try {
      // The same points written after the upgrade, one batch per series (as the upgrade chunks them).
      await migrate(expected.db);
      const current = new SqlSeriesStore(expected.db);
      for (const { run, points } of fixture()) {
        for (const name of ['loss', 'train/odd']) {
          const mine = points.filter((p) => p.logName === name);
          if (mine.length > 0) await current.appendMetrics({ id: run, projectId: 1 }, mine);
        }
      }
      const want = await readAll(current);
      const summaries = await expected.db.all<SeriesRow>(`SELECT ${SERIES_COLUMNS} FROM series ORDER BY id`);

      // What the release before chunks stored: series rows with their summaries, a row per point.
      await migrate(legacy.db, { upTo: 7 });
      for (const row of summaries) {
        await legacy.db.run(
          'INSERT INTO series (id, run_id, project_id, log_name, log_group, count, mean, mean_lo, m2, min_value, max_value, ' +
            'last_step, last_value, points, first_step, max_step, first_time, last_time, rollup_level) ' +
            'VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, -1)',
          [
            Number(row.id),
            Number(row.run_id),
            row.log_name,
            logGroupOf(row.log_name),
            ...[row.count, row.mean, row.mean_lo, row.m2, row.min_value, row.max_value, row.last_step, row.last_value],
            ...[row.points, row.first_step, row.max_step, row.first_time, row.last_time],
          ].map((v) => (typeof v === 'string' ? (/^-?\d+$/.test(v) ? Number(v) : v) : v)),
        );
        const mine = fixture()
          .find((f) => f.run === Number(row.run_id))!
          .points.filter((p) => p.logName === row.log_name);
        await legacy.db.runMany(
          'INSERT INTO metric_points (series_id, step, time, value, flag) VALUES (?, ?, ?, ?, ?)',
          mine.map((p) => {
            const v = encodeValue(p.value);
            return [Number(row.id), p.step, p.time, v.value, v.flag];
          }),
        );
      }

      // A start killed after its first batch (of series 1's 5,000 points), then a full start.
      const killed = (line: string) => {
        if (line.startsWith('moved')) throw new Error('killed');
      };
      await expect(migrate(legacy.db, { log: killed, batchPoints: 1000 })).rejects.toThrow('killed');
      const lines: string[] = [];
      await migrate(legacy.db, { log: (line) => lines.push(line) });
      expect(lines).toEqual(['moving 2006 metric points into chunks', 'moved 2006 of 2006 metric points into chunks']);
      const left = await legacy.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM metric_points');
      expect(Number(left?.n)).toBe(0);
      expect(await readAll(new SqlSeriesStore(legacy.db))).toEqual(want);

      // Writes after the upgrade continue the moved chunks.
      const more = [
        { logName: 'loss', step: 15_000, time: 9e9, value: 4 },
        { logName: 'loss', step: 3, time: 9e9, value: 5 },
      ];
      await new SqlSeriesStore(legacy.db).appendMetrics({ id: 1, projectId: 1 }, more);
      await current.appendMetrics({ id: 1, projectId: 1 }, more);
      expect(await readAll(new SqlSeriesStore(legacy.db))).toEqual(await readAll(current));
    } finally {
      await expected.db.close();
      await legacy.db.close();
      await expected.done();
      await legacy.done();
    }
  }, 120_000);
});
