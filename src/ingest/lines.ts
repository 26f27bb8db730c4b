/**
 * Validators for the three NDJSON ingest line kinds (docs/api.md §8). Each parses the whole
 * body before returning and throws badRequest naming the first bad line and field, so a batch
 * with one bad line stores nothing.
 */
import { badRequest } from '../errors.js';
import { CONSOLE_LOG_TYPES, type ConsoleLogType } from '../domain/types.js';
import { isPlainObject } from '../domain/deep-merge.js';
import { jsonValueProblem } from '../domain/json-field.js';
import { hasLoneSurrogate, LONE_SURROGATE_RULE, replaceLoneSurrogates } from '../domain/unicode-text.js';
import { NAN_MARKER, readNdjson, toMetricValue } from './ndjson.js';

/** One metric line: its body line number, time (epoch ms), step, and non-null values. */
export interface MetricLine {
  lineNumber: number;
  time: number;
  step: number;
  values: Array<{ logName: string; value: number }>;
}

/** One console-log line; `logLineNumber` is the client's `lineNumber` field. */
export interface LogLine {
  lineNumber: number;
  time: number;
  message: string;
  logLineNumber: number;
  logType: ConsoleLogType;
  step: number;
}

/** One data line (histogram, table, text, …); `data` is always text. */
export interface DataLine {
  lineNumber: number;
  time: number;
  step: number;
  logName: string;
  dataType: string;
  data: string;
}

/** Longest accepted metric or data logName, in UTF-16 code units. */
export const MAX_LOG_NAME = 1024;
/** Largest epoch millisecond a Date can hold, so every stored time formats as ISO 8601. */
const MAX_TIME = 8_640_000_000_000_000;

type Json = Record<string, unknown>;

const own = (o: Json, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
function fail(n: number, what: string): never {
  throw badRequest(`line ${n}: ${what}`);
}
const quote = (text: string): string => JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);

/** A non-negative safe integer; null or absent → `fallback`, or a "required" error without one. */
function integer(o: Json, key: string, n: number, fallback?: number): number {
  const v = own(o, key);
  if (v === undefined || v === null) return fallback ?? fail(n, `"${key}" is required`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    return fail(n, `"${key}" must be a non-negative integer`);
  }
  return v + 0; // turns -0 into 0
}

function time(o: Json, n: number): number {
  const t = integer(o, 'time', n);
  return t <= MAX_TIME ? t : fail(n, `"time" must be epoch milliseconds up to ${MAX_TIME}`);
}

function text(o: Json, key: string, n: number, nonEmpty: boolean, max = Infinity): string {
  const v = own(o, key);
  if (v === undefined || v === null) return fail(n, `"${key}" is required`);
  if (typeof v !== 'string') return fail(n, `"${key}" must be a string`);
  if (nonEmpty && v === '') return fail(n, `"${key}" must not be empty`);
  return v.length <= max ? v : fail(n, `"${key}" is longer than ${max} characters`);
}

/** A name must not hold U+0000 nor a lone surrogate (no engine stores them as sent). */
function name(v: string, what: string, n: number): string {
  if (v.includes('\0')) fail(n, `${what} must not contain the NUL character (U+0000)`);
  return hasLoneSurrogate(v) ? fail(n, `${what} must not contain ${LONE_SURROGATE_RULE}`) : v;
}

/**
 * Free text (log messages, text data) from a process's output may hold U+0000 or a lone
 * surrogate, which no engine stores as sent: each is kept as U+FFFD rather than losing the batch.
 */
const freeText = (v: string): string => replaceLoneSurrogates(v.includes('\0') ? v.replaceAll('\0', '\ufffd') : v);

/** Returns every metric line of the body; throws badRequest naming the first bad line. */
export function parseMetricLines(body: string): MetricLine[] {
  const out: MetricLine[] = [];
  // A body repeats a few names on every line: each is checked once.
  const goodNames = new Set<string>();
  for (const { lineNumber: n, value: o } of readNdjson(body)) {
    const t = time(o, n);
    const step = integer(o, 'step', n);
    const data = own(o, 'data');
    if (!isPlainObject(data)) fail(n, '"data" must be an object of metric values');
    const values: MetricLine['values'] = [];
    // for…in, not Object.entries: no [name, value] array per value. Parsing, checking and
    // packing a 1,000-point body took 289-363 µs with entries, 219-253 µs without (JSON.parse
    // alone: 150-195 µs). The own-key check keeps Object.entries' meaning.
    for (const logName in data) {
      if (!Object.hasOwn(data, logName)) continue;
      const raw = data[logName];
      if (!goodNames.has(logName)) {
        if (logName === '') fail(n, '"data" has an empty metric name');
        name(logName, `metric name ${quote(logName)}`, n);
        if (logName.length > MAX_LOG_NAME) {
          fail(n, `metric name ${quote(logName)} is longer than ${MAX_LOG_NAME} characters`);
        }
        goodNames.add(logName);
      }
      const value = toMetricValue(raw);
      if (value === undefined) {
        fail(n, `data[${quote(logName)}] must be a number, null, NaN or Infinity`);
      }
      if (typeof value === 'number') values.push({ logName, value });
    }
    out.push({ lineNumber: n, time: t, step, values });
  }
  return out;
}

/** Python logging levels the client may send, stored as the nearest console type. */
const LOG_TYPE_ALIASES: Record<string, ConsoleLogType> = { CRITICAL: 'ERROR', FATAL: 'ERROR', WARN: 'WARNING' };

/** Returns every console-log line of the body; logType is upper-cased; step defaults to 0. */
export function parseLogLines(body: string): LogLine[] {
  const out: LogLine[] = [];
  for (const { lineNumber: n, value: o } of readNdjson(body)) {
    const t = time(o, n);
    const message = freeText(text(o, 'message', n, false));
    const logLineNumber = integer(o, 'lineNumber', n);
    const rawType = text(o, 'logType', n, true).toUpperCase();
    const logType = CONSOLE_LOG_TYPES.find((type) => type === (LOG_TYPE_ALIASES[rawType] ?? rawType));
    if (logType === undefined) fail(n, `"logType" must be one of ${CONSOLE_LOG_TYPES.join(', ')}`);
    const step = integer(o, 'step', n, 0);
    out.push({ lineNumber: n, time: t, message, logLineNumber, logType, step });
  }
  return out;
}

/** Serialises object/array data; Python NaN tokens become null, as JSON.stringify does for ±Infinity. */
const stringify = (data: unknown): string => JSON.stringify(data, (_key, v: unknown) => (v === NAN_MARKER ? null : v));

/** Returns every data line (histograms, tables, text); object/array `data` is stored as JSON text. */
export function parseDataLines(body: string): DataLine[] {
  const out: DataLine[] = [];
  for (const { lineNumber: n, value: o } of readNdjson(body)) {
    const t = time(o, n);
    const step = integer(o, 'step', n, 0);
    const logName = name(text(o, 'logName', n, true, MAX_LOG_NAME), '"logName"', n);
    const dataType = name(text(o, 'dataType', n, true), '"dataType"', n);
    const raw = own(o, 'data');
    // Object data is a JSON value (refused when it cannot be stored); string data is free text.
    const problem = typeof raw === 'object' ? jsonValueProblem(raw) : undefined;
    if (problem !== undefined) fail(n, `"data" ${problem}`);
    const data =
      typeof raw === 'string' ? freeText(raw) : typeof raw === 'object' && raw !== null ? stringify(raw) : undefined;
    if (data === undefined) return fail(n, '"data" must be a string, a JSON object or an array');
    out.push({ lineNumber: n, time: t, step, logName, dataType, data });
  }
  return out;
}
