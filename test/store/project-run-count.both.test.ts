/**
 * `projects.run_count` (migration 18) on both engines: kept equal to the live runs of each
 * project through run creation, trash, restore, project trash, a run reviving a trashed
 * project and purge; and backfilled by the migration on a database that had runs before it.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { SqlMetadataStore } from '../../src/store/sql/metadata-store.js';
import { runInput, twoOrgs } from '../conformance/metadata-suite-helpers.js';
import { rawEngines, type RawEngine } from '../helpers/test-database.js';

/** Each project's kept count next to a count of its live runs. */
async function counts(db: SqlDb): Promise<{ name: string; kept: number; live: number }[]> {
  const rows = await db.all<{ name: string; kept: number; live: number }>(
    `SELECT p.name, p.run_count AS kept,
       (SELECT COUNT(*) FROM runs r WHERE r.project_id = p.id AND r.deleted_at IS NULL) AS live
     FROM projects p ORDER BY p.name`,
  );
  return rows.map((r) => ({ name: r.name, kept: Number(r.kept), live: Number(r.live) }));
}

/** Runs `body` on a migrated database of the engine with a store and an organization, then drops it. */
async function withStore(
  open: RawEngine['open'],
  body: (db: SqlDb, s: SqlMetadataStore, org: number) => Promise<void>,
): Promise<void> {
  const { db, done } = await open();
  try {
    await migrate(db);
    const s = new SqlMetadataStore(db);
    await body(db, s, (await twoOrgs(s)).org);
  } finally {
    await done();
  }
}

describe.each(rawEngines('stepwise-run-count-'))('project run counts ($name)', ({ open }) => {
  it('stay equal to the live runs through create, trash, restore, project trash, revival and purge', async () => {
    await withStore(open, async (db, s, org) => {
      const make = async (project: string) => (await s.createRun(runInput(org, project))).run.id;
      const a = await Promise.all([1, 2, 3, 4].map(() => make('a')));
      const b = await Promise.all([1, 2].map(() => make('b')));
      const expectCounts = async (expected: Record<string, number>) => {
        const rows = await counts(db);
        for (const r of rows) expect(r.kept, r.name).toBe(r.live);
        expect(Object.fromEntries(rows.map((r) => [r.name, r.kept]))).toEqual(expected);
        const listed = await s.listProjects(org);
        expect(Object.fromEntries(listed.map((p) => [p.name, p.runCount]))).toEqual(
          Object.fromEntries(Object.entries(expected).filter(([name]) => listed.some((p) => p.name === name))),
        );
      };
      await expectCounts({ a: 4, b: 2 });
      await s.trashRuns(org, [a[0]!, a[1]!, b[0]!], 1000);
      await expectCounts({ a: 2, b: 1 });
      await s.restoreRuns(org, [a[0]!]);
      await expectCounts({ a: 3, b: 1 });
      await s.trashProject(org, 'b', 2000);
      await expectCounts({ a: 3, b: 0 });
      await make('b'); // a new run brings the project back; its trashed runs stay in the trash
      await expectCounts({ a: 3, b: 1 });
      await s.restoreRuns(org, [b[0]!, b[1]!]);
      await expectCounts({ a: 3, b: 3 });
      await s.purgeRun(org, a[1]!, 3000);
      await expectCounts({ a: 3, b: 3 });
    });
  });

  it('are backfilled by migration 18 on a database with live and trashed runs', async () => {
    await withStore(open, async (db, s, org) => {
      const ids = await Promise.all([1, 2, 3].map(() => s.createRun(runInput(org, 'x')).then((r) => r.run.id)));
      await s.createRun(runInput(org, 'y'));
      await s.trashRuns(org, [ids[0]!], 1000);
      // Back to the schema before 18, as an older installation has it.
      for (const index of ['runs_live_updated', 'runs_live_seen']) await db.run(`DROP INDEX ${index}`);
      await db.run('ALTER TABLE projects DROP COLUMN run_count');
      await db.run('DELETE FROM schema_migrations WHERE version = 18');
      expect(await migrate(db)).toEqual([18]);
      expect(await counts(db)).toEqual([
        { name: 'x', kept: 2, live: 2 },
        { name: 'y', kept: 1, live: 1 },
      ]);
    });
  });
});
