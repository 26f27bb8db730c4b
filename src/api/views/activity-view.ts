import type { Alert, ConsoleLine, DataLine } from '../../domain/types.js';
import { iso } from '../../domain/iso.js';

/** A console line as GET /api/runs/logs answers it: the schema's keys, in its order. */
export const consoleLineView = (l: ConsoleLine) => ({
  time: iso(l.time),
  logType: l.logType,
  lineNumber: l.lineNumber,
  message: l.message,
  step: l.step,
});

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
