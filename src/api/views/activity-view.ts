import type { Alert as StoredAlert, DataLine as StoredLine } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';
import type { Json } from '../schemas/json.js';
import type { Alert, DataLine } from '../schemas/logs.js';

/** A data line as GET /api/runs/data answers it. */
export const dataLineView = (l: StoredLine): DataLine => ({ ...l, time: iso(l.time) });

/** An alert as GET /api/runs/alerts answers it (its payload as parsed from the stored JSON). */
export const alertView = (a: StoredAlert): Alert => ({
  id: a.id,
  level: a.level,
  title: a.title,
  body: a.body,
  time: iso(a.alertTime),
  payload: a.payload as Json,
});
