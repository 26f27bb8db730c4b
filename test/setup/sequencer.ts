/**
 * The order `npm test` starts its files in: project by project as Vitest does (a worker keeps
 * its imported modules within a project), and within a project the longest file first, so
 * that no long file starts last and runs alone at the end.
 *
 * Vitest orders a project's files by the durations it cached from the last run. A clean
 * clone (CI) has none, and Vitest then keeps the files in the order it found them: there a
 * 25 s file of the sqlite project started when everything else was done (244 s against 222 s
 * with durations cached). Without a cached duration, a file's expected time is the figure
 * below for the files that take much longer than their project's others (measured on this
 * 2-core machine; a stale figure only moves a file in the queue), else 1 s.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds that the longest files take, in any project that runs them. */
const LONG_FILES: Record<string, number> = {
  'test/browser/charts.test.ts': 31,
  'test/browser/live-charts.test.ts': 25,
  'test/browser/run-page-states.test.ts': 22,
  'test/browser/runs-table.test.ts': 22,
  'test/browser/logs.test.ts': 19,
  'test/browser/run-page.test.ts': 19,
  'test/browser/media.test.ts': 19,
  'test/browser/api-keys.test.ts': 18,
  'test/browser/data-lines.test.ts': 17,
  'test/api/hostile-input-run-writes.test.ts': 23,
  'test/conformance/series-store.postgres.test.ts': 20,
  'test/api/hostile-input.test.ts': 12,
  'test/api/stale-runs.test.ts': 11,
  'test/api/session.test.ts': 9,
  'test/api/runs-list.test.ts': 8,
  'test/conformance/series-store.sqlite.test.ts': 8,
  'test/api/ingest-metrics.test.ts': 7,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const expected = (file: TestSpecification): number => {
      const relative = path.relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative}`);
      return cached ? cached.duration / 1000 : (LONG_FILES[relative] ?? 1);
    };
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return expected(b) - expected(a);
    });
  }
}
