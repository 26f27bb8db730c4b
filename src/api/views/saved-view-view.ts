import { iso } from '../../domain/iso.js';
import type { SavedViewRecord } from '../../domain/types.js';
import type { SavedView, SavedViewHead } from '../schemas/saved-views.js';

/** A saved view as GET /api/views lists it. */
export const savedViewHead = (v: SavedViewRecord): SavedViewHead => ({
  id: v.id,
  projectName: v.projectName,
  name: v.name,
  isDefault: v.isDefault,
  createdBy: v.createdBy,
  createdAt: iso(v.createdAt),
  updatedAt: iso(v.updatedAt),
});

/** A saved view with its state (stored as JSON text the service checked). */
export const savedView = (v: SavedViewRecord): SavedView => ({ ...savedViewHead(v), state: JSON.parse(v.state) });
