/**
 * Reading data-line payloads as the pluto client sends them: histograms
 * `{type: "Histogram", freq: number[], bins: number[] (edges) | {min, max, num}, shape}`,
 * tables (column names plus rows, or a list of records, or pandas' "split" layout) and text.
 */

/** One step's histogram: bin edges (length = counts + 1) and counts. */
export interface HistogramStep {
  step: number;
  time: string;
  edges: number[];
  counts: number[];
}

/** A table: column names and rows of cells. */
export interface TableData {
  columns: string[];
  rows: unknown[][];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');
/** Numbers, nulls allowed (a NaN count from Python arrives as null through parseJson). */
const isCountArray = (v: unknown): v is (number | null)[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number' || x === null);

/** A JSON string literal, or Python's NaN / ±Infinity token outside of one. */
const STRING_OR_NON_FINITE = /"(?:[^"\\]|\\.)*"|-?\b(?:Infinity|NaN)\b/g;

/**
 * JSON.parse that answers undefined instead of throwing. Python may send NaN and ±Infinity
 * as bare tokens: those outside string values are read as null.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return JSON.parse(text.replace(STRING_OR_NON_FINITE, (m) => (m.startsWith('"') ? m : 'null'))) as unknown;
    } catch {
      return undefined;
    }
  }
}

/** The histogram in a payload, or null when it is not one. */
export function parseHistogram(value: unknown): { edges: number[]; counts: number[] } | null {
  if (!isObj(value)) return null;
  const counts = value.freq ?? value.counts ?? value.values;
  if (!isCountArray(counts) || counts.length === 0) return null;
  const bins = value.bins ?? value.edges;
  let edges: number[] | null = null;
  if (isNumArray(bins)) {
    if (bins.length === counts.length + 1) edges = bins;
    else if (bins.length === counts.length && bins.length > 1) {
      const w = bins[1]! - bins[0]!;
      edges = [...bins, bins[bins.length - 1]! + w];
    }
  } else if (isObj(bins) && typeof bins.min === 'number' && typeof bins.max === 'number') {
    const lo = bins.min;
    const w = (bins.max - lo) / counts.length;
    edges = Array.from({ length: counts.length + 1 }, (_, i) => lo + i * w);
  }
  if (!edges || edges.some((e) => !Number.isFinite(e))) return null;
  return { edges, counts: counts.map((c) => (c !== null && Number.isFinite(c) ? c : 0)) };
}

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : null;

function fromRecords(records: unknown[]): TableData | null {
  if (!records.every(isObj)) return null;
  const columns: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return { columns, rows: records.map((r) => columns.map((c) => r[c])) };
}

/** The table in a payload, or null when it is not one. */
export function parseTable(value: unknown): TableData | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    if (value.every(Array.isArray)) {
      const width = value.reduce((w: number, r: unknown[]) => Math.max(w, r.length), 0);
      return { columns: Array.from({ length: width }, (_, i) => String(i)), rows: value };
    }
    return fromRecords(value);
  }
  if (!isObj(value)) return null;
  const inner = isObj(value.table) ? value.table : value;
  const body = inner.data ?? inner.rows ?? inner.row ?? inner.values;
  const columns = strings(inner.columns ?? inner.col ?? inner.cols ?? inner.headers ?? inner.header);
  if (Array.isArray(body)) {
    if (columns && body.every(Array.isArray)) {
      const index = strings(inner.index);
      if (index && index.length === body.length && !columns.includes('index')) {
        return { columns: ['index', ...columns], rows: body.map((r, i) => [index[i], ...(r as unknown[])]) };
      }
      return { columns, rows: body as unknown[][] };
    }
    const t = parseTable(body);
    if (t) return columns && columns.length === t.columns.length ? { columns, rows: t.rows } : t;
  }
  // A dict of columns: {"a": [1, 2], "b": [3, 4]}.
  const entries = Object.entries(inner).filter(([k]) => k !== 'type');
  if (entries.length > 0 && entries.every(([, v]) => Array.isArray(v))) {
    const cols = entries.map(([k]) => k);
    const height = entries.reduce((h, [, v]) => Math.max(h, (v as unknown[]).length), 0);
    const rows = Array.from({ length: height }, (_, i) => entries.map(([, v]) => (v as unknown[])[i]));
    return { columns: cols, rows };
  }
  return null;
}

/** The text of a text line: a JSON string, an object's text field, or the raw text. */
export function textOf(raw: string): string {
  const value = parseJson(raw);
  if (typeof value === 'string') return value;
  if (isObj(value)) {
    for (const k of ['text', 'data', 'value', 'message', 'content']) {
      const v = value[k];
      if (typeof v === 'string') return v;
    }
  }
  return raw;
}

/** What a data line's payload is, for a log name of type DATA that does not say. */
export function kindOf(dataType: string, raw: string): 'histogram' | 'table' | 'text' {
  const t = dataType.toUpperCase();
  if (t === 'HISTOGRAM') return 'histogram';
  if (t === 'TABLE') return 'table';
  if (t === 'TEXT') return 'text';
  const value = parseJson(raw);
  if (parseHistogram(value)) return 'histogram';
  if (parseTable(value)) return 'table';
  return 'text';
}

/** A cell as text. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
