import { encodeRunId } from '../domain/sqid.js';

/** The dashboard page of a run: `<publicUrl>/o/<org>/projects/<project>/<sqid>`. */
export const runUrl = (publicUrl: string, orgSlug: string, projectName: string, runId: number): string =>
  `${publicUrl}/o/${encodeURIComponent(orgSlug)}/projects/${encodeURIComponent(projectName)}/${encodeRunId(runId)}`;

/** The dashboard comparison page of runs of one project. */
export const comparisonUrl = (
  publicUrl: string,
  orgSlug: string,
  projectName: string,
  runIds: readonly number[],
): string =>
  `${publicUrl}/o/${encodeURIComponent(orgSlug)}/projects/${encodeURIComponent(projectName)}/compare?runs=${runIds.join(',')}`;
