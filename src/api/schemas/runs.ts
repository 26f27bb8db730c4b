/** Response shapes of the run routes: create/resume, details, list, SQID lookup, model graph. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';
import { JsonValue } from './json.js';

/** A log name registered on a run. */
export const LogName = Type.Object({ logName: Type.String(), logType: Type.String(), logGroup: Type.String() });
export type LogName = Static<typeof LogName>;

/** Who created a run: null for runs made before users had roles. */
const CreatedBy = Nullable(
  Type.Object(
    { id: Type.Integer(), name: Type.String() },
    { description: 'The user who created the run: its id and display name.' },
  ),
);

/** GET /api/runs/details/{runId} (docs/api.md §3.8, notes and url included). */
export const RunDetails = Type.Object({
  createdBy: CreatedBy,
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
  logNames: Type.Array(LogName),
  config: JsonValue,
  systemMetadata: JsonValue,
  loggerSettings: JsonValue,
  statusMetadata: JsonValue,
  notes: Nullable(Type.String()),
  url: Type.String(),
});
export type RunDetails = Static<typeof RunDetails>;

/** The answer of POST /api/runs/create and POST /api/runs/resume. */
export const RunRef = Type.Object({
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
export type RunRef = Static<typeof RunRef>;

const Num = Nullable(Type.Number());

/** The summary of one metric of a listed run (`metrics=`); non-finite values are null. */
export const MetricSummary = Type.Object({ last: Num, min: Num, max: Num, mean: Num, count: Type.Integer() });
export type MetricSummary = Static<typeof MetricSummary>;

/** One run of GET /api/runs/list. */
export const RunRow = Type.Object({
  createdBy: CreatedBy,
  id: Type.Integer(),
  name: Type.String(),
  number: Type.Integer(),
  displayId: Type.String(),
  projectName: Type.String(),
  status: Type.String(),
  tags: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  url: Type.String(),
  forkedFromRunId: Nullable(Type.Integer()),
  forkStep: Nullable(Type.Integer()),
  config: JsonValue,
  summary: Type.Optional(Type.Record(Type.String(), MetricSummary)),
});
export type RunRow = Static<typeof RunRow>;

/** The answer of GET /api/runs/list: a page of runs and how many match. */
export const RunList = Type.Object({ runs: Type.Array(RunRow), total: Type.Integer() });
export type RunList = Static<typeof RunList>;

/** The answer of GET /api/runs/{sqid}. */
export const RunIdAnswer = Type.Object({ runId: Type.Integer() });
export type RunIdAnswer = Static<typeof RunIdAnswer>;

/** A run's model graph (POST /api/runs/modelGraph/create sends it, GET /api/runs/modelGraph answers it). */
export const ModelGraph = Type.Object({
  format: Type.String({ maxLength: 256 }),
  nodes: Type.Record(Type.String(), Type.Unknown()),
});
export type ModelGraph = Static<typeof ModelGraph>;

/** The answer of GET /api/runs/modelGraph. */
export const ModelGraphAnswer = Type.Object({ runId: Type.Integer(), graph: ModelGraph });
export type ModelGraphAnswer = Static<typeof ModelGraphAnswer>;
