import type { Run, RunStatus } from '../../domain/types.js';

/** The columns every run query selects, joined with its project. */
export const RUN_COLUMNS = `r.id, r.org_id, r.project_id, p.name AS project_name, p.prefix, r.number, r.name,
  r.external_id, r.status, r.tags, r.config, r.system_metadata, r.logger_settings, r.status_metadata,
  r.notes, r.forked_from_run_id, r.fork_step, r.created_at, r.updated_at, r.status_updated`;

export const RUN_FROM = 'runs r JOIN projects p ON p.id = r.project_id';

export interface RunRow {
  id: number;
  org_id: number;
  project_id: number;
  project_name: string;
  prefix: string;
  number: number;
  name: string;
  external_id: string | null;
  status: string;
  tags: string;
  config: string | null;
  system_metadata: string | null;
  logger_settings: string | null;
  status_metadata: string | null;
  notes: string | null;
  forked_from_run_id: number | null;
  fork_step: number | null;
  created_at: number;
  updated_at: number;
  status_updated: number;
}

/** Parses a stored JSON column; null stays null. */
export const parseJsonColumn = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** Serialises a JSON value for storage; null and undefined become SQL NULL. */
export const toJsonColumn = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** A run row as the Run record. */
export function toRun(row: RunRow): Run {
  return {
    id: Number(row.id),
    orgId: Number(row.org_id),
    projectId: Number(row.project_id),
    projectName: row.project_name,
    number: Number(row.number),
    displayId: `${row.prefix}-${row.number}`,
    name: row.name,
    externalId: row.external_id,
    status: row.status as RunStatus,
    tags: JSON.parse(row.tags) as string[],
    config: parseJsonColumn(row.config),
    systemMetadata: parseJsonColumn(row.system_metadata),
    loggerSettings: parseJsonColumn(row.logger_settings),
    statusMetadata: parseJsonColumn(row.status_metadata),
    notes: row.notes,
    forkedFromRunId: row.forked_from_run_id === null ? null : Number(row.forked_from_run_id),
    forkStep: row.fork_step === null ? null : Number(row.fork_step),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    statusUpdated: Number(row.status_updated),
  };
}
