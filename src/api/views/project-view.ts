import { iso } from '../../domain/iso.js';
import type { Project } from '../../domain/types.js';

/** A project as GET /api/runs/projects answers it. */
export const projectView = (p: Project) => ({ ...p, createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt) });
