import { Type, type Static } from '@sinclair/typebox';
import { Nullable, ProjectName, RunId } from '../schema-helpers.js';
import { RunRow } from './runs.js';

/** 1 to 1,000 run ids of the caller's organization (delete, restore, purge). */
export const RunIdsBody = Type.Object({ runIds: Type.Array(RunId, { minItems: 1, maxItems: 1000 }) });
export type RunIdsBody = Static<typeof RunIdsBody>;

/** The answer of delete, restore, purge and project delete: how many runs it moved or purged. */
export const RunCount = Type.Object({ success: Type.Boolean(), count: Type.Integer() });
export type RunCount = Static<typeof RunCount>;

/** One run of GET /api/runs/trash: its head and when it was trashed (ISO 8601). */
export const TrashedRun = Type.Composite([
  Type.Pick(RunRow, [
    'id',
    'name',
    'number',
    'displayId',
    'projectName',
    'status',
    'tags',
    'createdAt',
    'forkedFromRunId',
  ]),
  Type.Object({ deletedAt: Type.String() }),
]);
export type TrashedRun = Static<typeof TrashedRun>;

/** The answer of GET /api/runs/trash: a page of a project's trash, latest trashed first. */
export const TrashList = Type.Object({ runs: Type.Array(TrashedRun) });
export type TrashList = Static<typeof TrashList>;

/** Retention in whole days (1 to 36,500), or null for none. */
export const RetentionDays = Nullable(Type.Integer({ minimum: 1, maximum: 36_500 }));

/** The answer of GET /api/runs/projects/settings. */
export const ProjectSettings = Type.Object({ projectName: Type.String(), retentionDays: RetentionDays });
export type ProjectSettings = Static<typeof ProjectSettings>;

/** The body of POST /api/runs/projects/rename. */
export const ProjectRenameBody = Type.Object({ projectName: ProjectName, newName: ProjectName });

/** The answer of GET /api/runs/projects/renamed: the current name of a project once named so, or null. */
export const RenamedProject = Type.Object({ projectName: Nullable(Type.String()) });
export type RenamedProject = Static<typeof RenamedProject>;
