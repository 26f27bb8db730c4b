import { iso } from '../../domain/iso.js';
import type { StatusEvent as StoredEvent } from '../../domain/types.js';
import type { Json } from '../schemas/json.js';
import type { StatusEvent } from '../schemas/status-events.js';

/** A status event as GET /api/runs/status/history answers it (metadata as parsed from the stored JSON). */
export const statusEventView = (e: StoredEvent): StatusEvent => ({
  ...e,
  metadata: e.metadata as Json,
  createdAt: iso(e.createdAt),
});
