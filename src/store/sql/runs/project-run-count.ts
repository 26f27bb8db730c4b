import type { SqlExecutor } from '../db.js';

/**
 * Keeps `projects.run_count` (the live runs of each project, read by the projects list) in
 * step with runs moved in or out of the trash: adds `sign` per run of `moved` to its project,
 * one UPDATE per project. Call it in the transaction that moves them. A new run counts itself
 * where it takes its number (run-create.ts); purges touch trashed runs only, never the count.
 */
export async function countMovedRuns(
  tx: SqlExecutor,
  moved: readonly { projectId: number }[],
  sign: 1 | -1,
): Promise<void> {
  const perProject = new Map<number, number>();
  for (const m of moved) perProject.set(m.projectId, (perProject.get(m.projectId) ?? 0) + 1);
  for (const [projectId, n] of perProject) {
    await tx.run('UPDATE projects SET run_count = run_count + ? WHERE id = ?', [sign * n, projectId]);
  }
}
