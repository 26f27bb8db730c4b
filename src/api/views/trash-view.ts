import type { TrashedRun as StoredTrashedRun } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { TrashedRun } from '../schemas/run-admin.js';

/** A trashed run as GET /api/runs/trash answers it. */
export function trashedRunView(run: StoredTrashedRun): TrashedRun {
  return {
    id: run.id,
    name: run.name,
    number: run.number,
    displayId: run.displayId,
    projectName: run.projectName,
    status: run.status,
    tags: run.tags,
    createdAt: iso(run.createdAt),
    deletedAt: iso(run.deletedAt),
    forkedFromRunId: run.forkedFromRunId,
  };
}
