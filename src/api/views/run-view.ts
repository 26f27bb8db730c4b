import type { Run, RunJsonField } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { RunDetails as StoredDetails } from '../../services/run-details.js';
import type { ListedRun } from '../../services/run-list.js';
import { runUrl } from '../../services/run-urls.js';
import type { RunDetails, RunRef, RunRow } from '../schemas/runs.js';
import { itemMembers, jsonStream, RawJson, type WithRawJson } from '../sliced-json.js';
import { metricSummaryView } from './metric-view.js';

/** What runHeadView answers: the first fields of a run row. */
type RunHeadFields = Pick<
  RunRow,
  'id' | 'name' | 'number' | 'displayId' | 'projectName' | 'status' | 'tags' | 'createdAt'
>;

/**
 * The details answer of a run as JSON text pieces (stored JSON fields put in as they are,
 * log names one at a time as the answer is sent), in the RunDetails schema's shape.
 */
export function runDetailsPieces(d: StoredDetails, publicUrl: string, orgSlug: string): AsyncGenerator<string> {
  const { run, json } = d;
  const raw = (text: string | null) => new RawJson(text ?? 'null');
  return jsonStream<RunDetails>({
    id: run.id,
    name: run.name,
    number: run.number,
    displayId: run.displayId,
    status: run.status,
    tags: run.tags,
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    statusUpdated: iso(run.statusUpdated),
    createdBy: run.createdBy,
    projectName: run.projectName,
    externalId: run.externalId,
    forkedFromRunId: run.forkedFromRunId,
    forkStep: run.forkStep,
    // The store's entries are exactly {logName, logType, logGroup}: serialised a slice at a
    // time as the answer is sent (100,000 names in one block held the event loop).
    logNames: itemMembers([d.logNames]),
    config: raw(json.config),
    systemMetadata: raw(json.systemMetadata),
    loggerSettings: raw(json.loggerSettings),
    statusMetadata: raw(json.statusMetadata),
    notes: run.notes,
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
  });
}

/** The fields every listing of a run starts with (runs/list rows, the trash): ids, name, status, tags, creation time. */
export function runHeadView(run: Omit<Run, RunJsonField>): RunHeadFields {
  return {
    id: run.id,
    name: run.name,
    number: run.number,
    displayId: run.displayId,
    projectName: run.projectName,
    status: run.status,
    tags: run.tags,
    createdAt: iso(run.createdAt),
  };
}

/** The answer of runs/create and runs/resume. */
export function runRefView(run: Run, resumed: boolean, publicUrl: string, orgSlug: string): RunRef {
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
export function runRowView(
  { run, summaries, config }: ListedRun,
  publicUrl: string,
  orgSlug: string,
): WithRawJson<RunRow> {
  return {
    ...runHeadView(run),
    updatedAt: iso(run.updatedAt),
    createdBy: run.createdBy,
    url: runUrl(publicUrl, orgSlug, run.projectName, run.id),
    forkedFromRunId: run.forkedFromRunId,
    forkStep: run.forkStep,
    config: new RawJson(config ?? 'null'),
    // fromEntries defines own properties, so a metric named __proto__ stays a plain key.
    ...(summaries ? { summary: Object.fromEntries(summaries.map((s) => [s.logName, metricSummaryView(s)])) } : {}),
  };
}
