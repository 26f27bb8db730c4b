import { liveRun } from './live-runs.js';
import type { Run, RunHead, RunJsonField, RunStatus } from '../../../domain/types.js';

/** The columns every run query selects, joined with its project. */
export const RUN_COLUMNS = `r.id, r.org_id, r.project_id, p.name AS project_name, p.prefix, r.number, r.name,
  r.external_id, r.status, r.tags, r.config, r.system_metadata, r.logger_settings, r.status_metadata,
  r.notes, r.forked_from_run_id, r.fork_step, r.created_at, r.updated_at, r.status_updated, r.created_by,
  COALESCE(cu.display_name, cu.name) AS created_by_name`;

/** Live runs (live-runs.ts) with their project and the user who created them (none for older runs): what every read of runs for an answer selects from. */
export const RUN_FROM = `runs r JOIN projects p ON p.id = r.project_id AND ${liveRun('r')} LEFT JOIN users cu ON cu.id = r.created_by`;

/** Every run, trashed ones included, with its project and creator (the trash and purge reads only). */
export const ANY_RUN_FROM = 'runs r JOIN projects p ON p.id = r.project_id LEFT JOIN users cu ON cu.id = r.created_by';

/** The byte length of a nullable text column (0 when NULL); neither engine reads the text for it. */
const bytesOf = (column: string): string => `COALESCE(octet_length(${column}), 0)`;

/**
 * The columns of a run without its JSON fields, plus the byte lengths of its stored config
 * (`config_bytes`) and of all four JSON fields (`json_bytes`).
 */
export const RUN_HEAD_COLUMNS = `r.id, r.org_id, r.project_id, p.name AS project_name, p.prefix, r.number, r.name,
  r.external_id, r.status, r.tags, r.notes, r.forked_from_run_id, r.fork_step, r.created_at, r.updated_at,
  r.status_updated, r.created_by, COALESCE(cu.display_name, cu.name) AS created_by_name,
  ${bytesOf('r.config')} AS config_bytes, ${['r.config', 'r.system_metadata', 'r.logger_settings', 'r.status_metadata'].map(bytesOf).join(' + ')} AS json_bytes`;

/** A row of RUN_HEAD_COLUMNS. */
export type RunHeadRow = Omit<RunRow, 'config' | 'system_metadata' | 'logger_settings' | 'status_metadata'> & {
  config_bytes: number | string;
  json_bytes: number | string;
};

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
  created_by: number | null;
  created_by_name: string | null;
}

/** Parses a stored JSON column; null stays null. */
export const parseJsonColumn = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** Serialises a JSON value for storage; null and undefined become SQL NULL. */
export const toJsonColumn = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** A run row as the Run record. */
export function toRun(row: RunRow): Run {
  return {
    ...headOf(row),
    config: parseJsonColumn(row.config),
    systemMetadata: parseJsonColumn(row.system_metadata),
    loggerSettings: parseJsonColumn(row.logger_settings),
    statusMetadata: parseJsonColumn(row.status_metadata),
  };
}

/** A row of RUN_HEAD_COLUMNS as the RunHead record. */
export function toRunHead(row: RunHeadRow): RunHead {
  return { ...headOf(row), configBytes: Number(row.config_bytes), jsonBytes: Number(row.json_bytes) };
}

/** The fields of a run that are not JSON fields. */
function headOf(
  row: Omit<RunRow, 'config' | 'system_metadata' | 'logger_settings' | 'status_metadata'>,
): Omit<Run, RunJsonField> {
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
    notes: row.notes,
    forkedFromRunId: row.forked_from_run_id === null ? null : Number(row.forked_from_run_id),
    forkStep: row.fork_step === null ? null : Number(row.fork_step),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    statusUpdated: Number(row.status_updated),
    createdBy:
      row.created_by === null
        ? null
        : { id: Number(row.created_by), name: row.created_by_name ?? String(row.created_by) },
  };
}
