import { Type, type Static } from '@sinclair/typebox';
import type { LogNameEntry, Run, SeriesSummary } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import { runUrl } from '../../services/run-urls.js';
import { JsonValue, Nullable } from '../schema-helpers.js';
import { metricSummaryView } from './metric-view.js';

export const LogNameSchema = Type.Object({ logName: Type.String(), logType: Type.String(), logGroup: Type.String() });

/** The run details shape (interface.md field list, plus notes and url). */
export const RunDetailsSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  number: Type.Integer(),
  displayId: Type.String(),
  status: Type.String(),
  tags: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  statusUpdated: Type.String(),
  projectName: Type.String(),
  externalId: Nullable(Type.String()),
  forkedFromRunId: Nullable(Type.Integer()),
  forkStep: Nullable(Type.Integer()),
  logNames: Type.Array(LogNameSchema),
  config: JsonValue,
  systemMetadata: JsonValue,
  loggerSettings: JsonValue,
  statusMetadata: JsonValue,
  notes: Nullable(Type.String()),
  url: Type.String(),
});

/** A run as the details endpoints answer it. */
export function runDetailsView(
  run: Run,
  logNames: LogNameEntry[],
  publicUrl: string,
  orgSlug: string,
): Static<typeof RunDetailsSchema> {
  return {
    id: run.id,
    name: run.name,
    number: run.number,
    displayId: run.displayId,
    status: run.status,
    tags: run.tags,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    statusUpdated: iso(run.statusUpdated),
    projectName: run.projectName,
    externalId: run.externalId,
    forkedFromRunId: run.forkedFromRunId,
    forkStep: run.forkStep,
    logNames,
    config: run.config,
    systemMetadata: run.systemMetadata,
    loggerSettings: run.loggerSettings,
    statusMetadata: run.statusMetadata,
    notes: run.notes,
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
  };
}

export const RunRefSchema = Type.Object({
  runId: Type.Integer(),
  number: Type.Integer(),
  displayId: Type.String(),
  projectName: Type.String(),
  organizationSlug: Type.String(),
  url: Type.String(),
  resumed: Type.Boolean(),
  forkedFromRunId: Nullable(Type.Integer()),
  forkStep: Nullable(Type.Integer()),
});

/** The answer of runs/create and runs/resume. */
export function runRefView(
  run: Run,
  resumed: boolean,
  publicUrl: string,
  orgSlug: string,
): Static<typeof RunRefSchema> {
  return {
    runId: run.id,
    number: run.number,
    displayId: run.displayId,
    projectName: run.projectName,
    organizationSlug: orgSlug,
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
    resumed,
    forkedFromRunId: run.forkedFromRunId,
    forkStep: run.forkStep,
  };
}

/**
 * A row of GET /api/runs/list: the run with ISO times and its url, plus `summary` (by metric
 * name) when metrics were asked for.
 */
export function runRowView(run: Run, summaries: SeriesSummary[] | undefined, publicUrl: string, orgSlug: string) {
  return {
    id: run.id,
    name: run.name,
    number: run.number,
    displayId: run.displayId,
    projectName: run.projectName,
    status: run.status,
    tags: run.tags,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
    forkedFromRunId: run.forkedFromRunId,
    forkStep: run.forkStep,
    config: run.config,
    // fromEntries defines own properties, so a metric named __proto__ stays a plain key.
    ...(summaries ? { summary: Object.fromEntries(summaries.map((s) => [s.logName, metricSummaryView(s)])) } : {}),
  };
}
