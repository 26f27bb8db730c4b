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

/**
 * Seconds that the longest files take, in the slower project that runs them: half of what
 * they took on 26 Nov with the machine shared by other runs (load 10-20), after the speed-ups
 * of that day. Only their order within a project matters.
 */
const LONG_FILES: Record<string, number> = {
  'test/browser/members.test.ts': 12,
  'test/browser/chart-panels.test.ts': 12,
  'test/browser/runs-table-selection.test.ts': 12,
  'test/browser/notifications.test.ts': 12,
  'test/browser/logs.test.ts': 11,
  'test/browser/saved-views.test.ts': 11,
  'test/browser/live-charts.test.ts': 11,
  'test/browser/workspace.test.ts': 10,
  'test/browser/run-page-states.test.ts': 10,
  'test/browser/run-page.test.ts': 9,
  'test/browser/api-keys.test.ts': 9,
  'test/browser/many-runs.test.ts': 8,
  'test/browser/charts.test.ts': 8,
  'test/browser/media.test.ts': 8,
  'test/browser/data-lines.test.ts': 7,
  'test/browser/compare.test.ts': 7,
  'test/api/hostile-input.test.ts': 25,
  'test/api/reads-metrics-bound.test.ts': 17,
  'test/conformance/series-store.postgres.test.ts': 14,
  'test/conformance/series-store.sqlite.test.ts': 10,
  'test/api/hostile-input-run-writes.test.ts': 9,
  'test/api/runs-trash.test.ts': 7,
  'test/api/stale-runs.test.ts': 7,
  'test/api/runs-list.test.ts': 7,
  'test/store/chunk-consistency.test.ts': 7,
  'test/api/accounts.test.ts': 6,
  'test/api/route-roles.test.ts': 6,
  'test/api/ingest-metrics.test.ts': 6,
  'test/store/chunk-sample-skip.test.ts': 5,
  'test/api/runs-list-bounds.test.ts': 5,
  'test/api/runs-update.test.ts': 5,
  'test/api/session.test.ts': 5,
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
