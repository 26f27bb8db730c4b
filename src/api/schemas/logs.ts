/** Response shapes of a run's console lines, data lines and alerts. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schema-helpers.js';
import { JsonValue } from './json.js';

/** A console line; the store writes each line's JSON text in this shape and key order. */
export const LogLine = Type.Object({
  time: Type.String(),
  logType: Type.String(),
  lineNumber: Type.Integer(),
  message: Type.String(),
  step: Type.Integer(),
});
export type LogLine = Static<typeof LogLine>;

/** The answer of GET /api/runs/logs: a page of lines and how many match the type filter. */
export const LogPage = Type.Object({ logs: Type.Array(LogLine), total: Type.Integer() });
export type LogPage = Static<typeof LogPage>;

/** A data line (histogram, table, text series), `data` as text. */
export const DataLine = Type.Object({
  time: Type.String(),
  step: Type.Integer(),
  logName: Type.String(),
  dataType: Type.String(),
  data: Type.String(),
});
export type DataLine = Static<typeof DataLine>;

/** The answer of GET /api/runs/data: a page of lines and how many there are. */
export const DataPage = Type.Object({ data: Type.Array(DataLine), total: Type.Integer() });
export type DataPage = Static<typeof DataPage>;

/** An alert of a run. */
export const Alert = Type.Object({
  id: Type.Integer(),
  level: Nullable(Type.String()),
  title: Nullable(Type.String()),
  body: Nullable(Type.String()),
  time: Type.String(),
  payload: JsonValue,
});
export type Alert = Static<typeof Alert>;

/** The answer of GET /api/runs/alerts. */
export const AlertList = Type.Object({ runId: Type.Integer(), alerts: Type.Array(Alert) });
export type AlertList = Static<typeof AlertList>;
