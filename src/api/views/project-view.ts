import { iso } from '../../domain/iso.js';
import type { Project as StoredProject } from '../../domain/types.js';
import type { Project } from '../schemas/projects.js';

/** A project as GET /api/runs/projects answers it. */
export const projectView = (p: StoredProject): Project => ({
  ...p,
  createdAt: iso(p.createdAt),
  updatedAt: iso(p.updatedAt),
});
