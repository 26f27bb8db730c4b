/**
 * What load and fault tests sent and how each request ended, and the check of a server's
 * final state against it: every acknowledged item present, every request all-or-nothing,
 * summaries equal to a recomputation from the stored points.
 */
import { createHash } from 'node:crypto';
import { http } from './http-client.js';

/**
 * The largest (sign 1) or smallest (sign -1) of the values. Not Math.max(...values): a
 * flood acknowledges enough points to overflow the call stack with that many arguments.
 */
function extreme(values: readonly number[], sign: 1 | -1): number {
  let out = sign * -Infinity;
  for (const v of values) if (sign * v > sign * out) out = v;
  return out;
}

/** acked: 200; refused: a 4xx/503 answer (nothing stored); unknown: no answer or a 5xx. */
export type Outcome = 'pending' | 'acked' | 'refused' | 'unknown';

export interface MetricPoint {
  name: string;
  step: number;
  time: number;
  value: number;
}

export interface Write<T> {
  runId: number;
  items: T[];
  outcome: Outcome;
}

export interface LogItem {
  lineNumber: number;
  message: string;
}

export interface FileItem {
  fileName: string;
  sha256: string;
}

/** Every write a test sent, by kind. */
export class Ledger {
  readonly metrics: Write<MetricPoint>[] = [];
  readonly logs: Write<LogItem>[] = [];
  readonly files: Write<FileItem>[] = [];

  /** Records a request about to be sent (outcome pending) and returns its entry. */
  track<T>(list: Write<T>[], runId: number, items: T[]): Write<T> {
    const entry: Write<T> = { runId, items, outcome: 'pending' };
    list.push(entry);
    return entry;
  }

  /** Requests by outcome, over all kinds. */
  tally(): Record<Outcome, number> {
    const t: Record<Outcome, number> = { pending: 0, acked: 0, refused: 0, unknown: 0 };
    for (const w of [...this.metrics, ...this.logs, ...this.files]) t[w.outcome]++;
    return t;
  }
}

/** The outcome of an HTTP status (undefined = no answer): a 4xx or a 503 stored nothing. */
export function outcomeOf(status: number | undefined): Outcome {
  if (status === 200) return 'acked';
  if (status !== undefined && (status < 500 || status === 503)) return 'refused';
  return 'unknown';
}

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** What a verification found; every count but the first two must be 0. */
export interface Findings {
  itemsChecked: number;
  ackedItems: number;
  /** Requests without an answer that were nevertheless stored whole (committed as the server died). */
  unknownStored: number;
  ackedLost: number;
  halfWritten: number;
  wrongValues: number;
  strayItems: number;
  summaryMismatches: number;
  problems: string[];
}

export interface Target {
  base: string;
  key: string;
  project: string;
}

async function getJson<T>(t: Target, url: string): Promise<T> {
  const res = await http(t.base, 'GET', url, { key: t.key, timeoutMs: 60_000 });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** Every stored point of one series: step → {value, time}. Reads in step windows so nothing is sampled. */
export async function readSeries(t: Target, runId: number, name: string, maxStep: number) {
  const points = new Map<number, { value: number | null; time: number }>();
  for (let lo = 0; lo <= maxStep; lo += 5000) {
    const q = `runId=${runId}&projectName=${encodeURIComponent(t.project)}&logName=${encodeURIComponent(name)}`;
    const body = await getJson<{ metrics: { step: number; value: number | null; time: string }[] }>(
      t,
      `/api/runs/metrics?${q}&stepMin=${lo}&stepMax=${lo + 4999}&limit=10000`,
    );
    for (const p of body.metrics) points.set(p.step, { value: p.value, time: Date.parse(p.time) });
  }
  return points;
}

const close = (a: number | null | undefined, b: number | null | undefined) =>
  a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));

/** Compares GET statistics of a run with a recomputation from its stored series; records mismatches in f. */
export async function checkSummaries(
  t: Target,
  runId: number,
  series: Map<string, Map<number, { value: number | null }>>,
  f: Findings,
) {
  const stats = await getJson<{
    metrics: {
      logName: string;
      count: number;
      min: number;
      max: number;
      mean: number;
      stddev: number;
      last: { step: number; value: number } | null;
    }[];
  }>(t, `/api/runs/statistics?runId=${runId}&projectName=${encodeURIComponent(t.project)}`);
  for (const [name, points] of series) {
    const steps = [...points.keys()].sort((a, b) => a - b);
    const values = steps.map((s) => points.get(s)!.value).filter((v): v is number => v !== null);
    const got = stats.metrics.find((m) => m.logName === name);
    if (values.length === 0) continue;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const stddev = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    const lastStep = steps[steps.length - 1]!;
    const want = { count: values.length, min: extreme(values, -1), max: extreme(values, 1), mean, stddev };
    const ok =
      got !== undefined &&
      got.count === want.count &&
      close(got.min, want.min) &&
      close(got.max, want.max) &&
      close(got.mean, want.mean) &&
      Math.abs(got.stddev - want.stddev) <= 1e-6 * Math.max(1, want.stddev) &&
      got.last?.step === lastStep &&
      close(got.last.value, points.get(lastStep)!.value);
    if (!ok) {
      f.summaryMismatches++;
      f.problems.push(`run ${runId} ${name}: statistics ${JSON.stringify(got)} vs recomputed ${JSON.stringify(want)}`);
    }
  }
}

/**
 * Checks metrics whose (run, name, step) keys are written at most once, and logs whose
 * line numbers are unique per run: acked → all present with their values; unknown → all
 * or none; refused → none; nothing stored that no request sent; summaries recomputed.
 */
export async function verifyUniqueWrites(t: Target, ledger: Ledger, f: Findings): Promise<void> {
  const byRun = new Map<number, Write<MetricPoint>[]>();
  for (const w of ledger.metrics) {
    const list = byRun.get(w.runId);
    if (list) list.push(w);
    else byRun.set(w.runId, [w]);
  }
  for (const [runId, writes] of byRun) {
    const names = [...new Set(writes.flatMap((w) => w.items.map((p) => p.name)))];
    const maxStep = extreme([0, ...writes.flatMap((w) => w.items.map((p) => p.step))], 1);
    const series = new Map<string, Map<number, { value: number | null; time: number }>>();
    for (const name of names) series.set(name, await readSeries(t, runId, name, maxStep));
    let expectedStored = 0;
    for (const w of writes) {
      const present = w.items.filter((p) => series.get(p.name)!.has(p.step));
      f.itemsChecked += w.items.length;
      judge(f, w, present.length, `metrics run ${runId} steps ${w.items[0]?.step}..`);
      if (present.length === w.items.length) expectedStored += w.items.length;
      for (const p of present) {
        if (!close(series.get(p.name)!.get(p.step)!.value, p.value)) {
          f.wrongValues++;
          f.problems.push(
            `run ${runId} ${p.name}@${p.step}: stored ${series.get(p.name)!.get(p.step)!.value}, sent ${p.value}`,
          );
        }
      }
    }
    const stored = [...series.values()].reduce((n, s) => n + s.size, 0);
    if (stored > expectedStored) {
      f.strayItems += stored - expectedStored;
      f.problems.push(`run ${runId}: ${stored - expectedStored} stored points no complete request sent`);
    }
    await checkSummaries(t, runId, series, f);
  }
  await verifyLogs(t, ledger, f);
}

/** Applies the all-or-nothing rule to one request that had `present` of its items stored. */
function judge(f: Findings, w: Write<unknown>, present: number, what: string): void {
  const n = w.items.length;
  if (w.outcome === 'acked') {
    f.ackedItems += n;
    if (present < n) {
      f.ackedLost += n - present;
      f.problems.push(`${what}: acknowledged, ${n - present} of ${n} items missing`);
    }
  } else if (w.outcome === 'unknown' && present === n && n > 0) {
    f.unknownStored++;
  } else if (present !== 0 && present !== n) {
    f.halfWritten++;
    f.problems.push(`${what}: ${w.outcome}, half written (${present} of ${n})`);
  } else if (w.outcome === 'refused' && present !== 0) {
    f.strayItems += present;
    f.problems.push(`${what}: refused but stored`);
  }
}

/** Log lines read per request (lines may be large). */
const LOG_PAGE = 1000;

async function verifyLogs(t: Target, ledger: Ledger, f: Findings): Promise<void> {
  const runs = new Set(ledger.logs.map((w) => w.runId));
  for (const runId of runs) {
    const stored = new Map<number, string>();
    for (let offset = 0; ; offset += LOG_PAGE) {
      const page = await getJson<{ logs: { lineNumber: number; message: string }[]; total: number }>(
        t,
        `/api/runs/logs?runId=${runId}&limit=${LOG_PAGE}&offset=${offset}`,
      );
      for (const l of page.logs) stored.set(l.lineNumber, l.message);
      if (offset + LOG_PAGE >= page.total) break;
    }
    for (const w of ledger.logs.filter((x) => x.runId === runId)) {
      const present = w.items.filter((l) => stored.has(l.lineNumber));
      f.itemsChecked += w.items.length;
      judge(f, w, present.length, `logs run ${runId} line ${w.items[0]?.lineNumber}..`);
      for (const l of present) {
        if (stored.get(l.lineNumber) !== l.message) {
          f.wrongValues++;
          f.problems.push(`run ${runId} line ${l.lineNumber}: stored ${stored.get(l.lineNumber)}`);
        }
      }
    }
  }
}

/** Acked uploads are listed and their bytes match; any listed file is whole (its hash matches). */
export async function verifyFiles(t: Target, ledger: Ledger, f: Findings): Promise<void> {
  const runs = new Set(ledger.files.map((w) => w.runId));
  for (const runId of runs) {
    const { files } = await getJson<{ files: { fileName: string; url: string }[] }>(
      t,
      `/api/runs/files?runId=${runId}`,
    );
    const listed = new Map(files.map((x) => [x.fileName, x.url]));
    for (const w of ledger.files.filter((x) => x.runId === runId)) {
      const item = w.items[0]!;
      const url = listed.get(item.fileName);
      f.itemsChecked++;
      judge(f, w, url === undefined ? 0 : 1, `file ${item.fileName}`);
      if (url === undefined) continue;
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || sha256(bytes) !== item.sha256) {
        f.wrongValues++;
        f.problems.push(`file ${item.fileName}: download ${res.status}, bytes differ from what was sent`);
      }
    }
  }
}

/** A fresh, empty Findings. */
export const newFindings = (): Findings => ({
  itemsChecked: 0,
  ackedItems: 0,
  unknownStored: 0,
  ackedLost: 0,
  halfWritten: 0,
  wrongValues: 0,
  strayItems: 0,
  summaryMismatches: 0,
  problems: [],
});
