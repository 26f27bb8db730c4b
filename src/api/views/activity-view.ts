import type { Alert, DataLine } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';

/** A data line as GET /api/runs/data answers it. */
export const dataLineView = (l: DataLine) => ({ ...l, time: iso(l.time) });

/** An alert as GET /api/runs/alerts answers it. */
export const alertView = (a: Alert) => ({
  id: a.id,
  level: a.level,
  title: a.title,
  body: a.body,
  time: iso(a.alertTime),
  payload: a.payload,
});
