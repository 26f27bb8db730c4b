import type { TrashedRun as StoredTrashedRun } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { TrashedRun } from '../schemas/run-admin.js';
import { runHeadView } from './run-view.js';

/** A trashed run as GET /api/runs/trash answers it: a run row's head fields, when it was deleted, its fork parent. */
export function trashedRunView(run: StoredTrashedRun): TrashedRun {
  return { ...runHeadView(run), deletedAt: iso(run.deletedAt), forkedFromRunId: run.forkedFromRunId };
}
