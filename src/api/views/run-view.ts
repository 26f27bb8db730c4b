import { Type, type Static } from '@sinclair/typebox';
import type { Run } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { RunDetails } from '../../services/run-details.js';
import type { ListedRun } from '../../services/run-list.js';
import { runUrl } from '../../services/run-urls.js';
import { itemMembers, jsonStream, RawJson } from '../sliced-json.js';
import { JsonValue, Nullable } from '../schema-helpers.js';
import { metricSummaryView } from './metric-view.js';

export const LogNameSchema = Type.Object({ logName: Type.String(), logType: Type.String(), logGroup: Type.String() });

/** The run details shape (docs/api.md §3.8, notes and url included). */
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

/**
 * The details answer of a run as JSON text pieces (stored JSON fields put in as they are,
 * log names one at a time as the answer is sent), in RunDetailsSchema's shape.
 */
export function runDetailsPieces(d: RunDetails, publicUrl: string, orgSlug: string): AsyncGenerator<string> {
  const { run, json } = d;
  const raw = (text: string | null) => new RawJson(text ?? 'null');
  const head = {
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
  };
  const tail = {
    config: raw(json.config),
    systemMetadata: raw(json.systemMetadata),
    loggerSettings: raw(json.loggerSettings),
    statusMetadata: raw(json.statusMetadata),
    notes: run.notes,
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
  };
  // The store's entries are exactly {logName, logType, logGroup}: serialised a slice at a
  // time as the answer is sent (100,000 names in one block held the event loop).
  return jsonStream(head, 'logNames', itemMembers([d.logNames]), tail);
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
 * A row of GET /api/runs/list: the run with ISO times and its url, its config (JSON text as
 * stored, or the picked keys), plus `summary` (by metric name) when metrics were asked for.
 */
export function runRowView({ run, summaries, config }: ListedRun, publicUrl: string, orgSlug: string) {
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
    config: new RawJson(config ?? 'null'),
    // fromEntries defines own properties, so a metric named __proto__ stays a plain key.
    ...(summaries ? { summary: Object.fromEntries(summaries.map((s) => [s.logName, metricSummaryView(s)])) } : {}),
  };
}
