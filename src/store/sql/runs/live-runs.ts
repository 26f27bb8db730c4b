/**
 * What a "live" run and project are: not in the trash (and so not purged either). Every
 * read of runs and projects for an answer applies these predicates, through RUN_FROM
 * (run-row.ts, which joins a run to its project) or by calling them on its own alias; only
 * the trash, restore, purge and fork-lineage reads (run-trash.ts, run-purge.ts, getLineage's
 * ancestors) see trashed runs. A new query over `runs` calls liveRun('r').
 *
 * Metric series live in the series store, possibly another database file, which cannot join
 * `runs`: there a trashed run's series rows carry the negated project id (TRASHED_SERIES
 * below), so every project-wide series query (`WHERE project_id = ?`) leaves them out with
 * the index it already uses, while reads by run (a fork's lineage) still find them.
 */

/** The SQL condition that the run under `alias` is live (not in the trash, not purged). */
export function liveRun(alias = 'r'): string {
  return `${alias}.deleted_at IS NULL`;
}

/** The SQL condition that the project under `alias` is live (not in the trash). */
export function liveProject(alias = 'p'): string {
  return `${alias}.deleted_at IS NULL`;
}

/**
 * The series-store side: the value a trashed run's `series.project_id` holds instead of its
 * project's id (negated; ids are positive), and back. Applied by sql/metrics/series-trash.ts.
 */
export const TRASHED_SERIES = {
  /** Condition on `series` rows still counted in their project. */
  live: 'project_id > 0',
  /** Condition on `series` rows of a trashed run. */
  trashed: 'project_id < 0',
  /** The assignment that flips a row between the two. */
  flip: 'project_id = -project_id',
} as const;
