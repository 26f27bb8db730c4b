import { iso } from '../../domain/iso.js';
import type { StatusEvent } from '../../domain/types.js';

/** A status event as GET /api/runs/status/history answers it. */
export const statusEventView = (e: StatusEvent) => ({ ...e, createdAt: iso(e.createdAt) });
