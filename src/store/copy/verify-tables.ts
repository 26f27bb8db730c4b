import type { SqlDb } from '../sql/db.js';
import type { SourceValue } from '../sqlite/sqlite-source.js';
import type { CopyPart, TablePlan } from './copy-plan.js';
import { RowDigest } from './row-digest.js';

/** One comparison of the verification: rows (or points) and checksum on each side. */
export interface Check {
  /** `table runs`, `series 12 metric_chunks`. */
  name: string;
  source: { count: number; checksum: string };
  target: { count: number; checksum: string };
  ok: boolean;
}

const PAGE = 5000;

/** Digests of one side of one table: the whole table, and per series when it has a series_id column. */
class TableDigests {
  readonly all = new RowDigest();
  readonly series = new Map<number, { digest: RowDigest; points: number }>();
  constructor(
    private readonly seriesAt: number,
    private readonly pointsAt: number,
  ) {}
  add(values: readonly unknown[]): void {
    this.all.add(values);
    if (this.seriesAt < 0) return;
    const id = Number(values[this.seriesAt]);
    let s = this.series.get(id);
    if (!s) this.series.set(id, (s = { digest: new RowDigest(), points: 0 }));
    s.digest.add(values);
    s.points += this.pointsAt < 0 ? 1 : Number(values[this.pointsAt]);
  }
}

async function readTarget(
  target: SqlDb,
  table: string,
  key: readonly string[],
  columns: readonly string[],
  into: TableDigests,
) {
  const select = `SELECT ${[...key, ...columns].join(', ')} FROM ${table}`;
  if (key.length === 0) {
    for (const row of await target.allArrays<unknown[]>(select)) into.add(row);
    return;
  }
  const order = ` ORDER BY ${key.join(', ')} LIMIT ${PAGE}`;
  let after: unknown[] | undefined;
  for (;;) {
    const where = after ? ` WHERE (${key.join(', ')}) > (${key.map(() => '?').join(', ')})` : '';
    const rows = await target.allArrays<unknown[]>(select + where + order, (after ?? []) as SourceValue[]);
    for (const row of rows) into.add(row.slice(key.length));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.slice(0, key.length);
  }
}

const check = (
  name: string,
  s: { count: number; digest: RowDigest },
  t: { count: number; digest: RowDigest },
): Check => ({
  name,
  source: { count: s.count, checksum: s.digest.hex() },
  target: { count: t.count, checksum: t.digest.hex() },
  ok: s.count === t.count && s.digest.hex() === t.digest.hex(),
});

/** Calls fn with the values of columns of every row of a source part, read in pages. */
function readSource(part: CopyPart, columns: readonly string[], fn: (values: SourceValue[]) => void): void {
  let after: SourceValue[] | undefined;
  for (;;) {
    const rows = part.source.page(part.table, columns, after, PAGE);
    for (const r of rows) fn(r.values);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.key;
  }
}

/** `run <runId>, <logName>` of every series id of the source (its `series` table), for the report. */
function seriesNames(plan: readonly TablePlan[]): Map<number, string> {
  const names = new Map<number, string>();
  for (const part of plan.find((t) => t.target.name === 'series')?.parts ?? []) {
    if (!['id', 'run_id', 'log_name'].every((c) => part.columns.includes(c))) continue;
    readSource(part, ['id', 'run_id', 'log_name'], ([id, run, name]) =>
      names.set(Number(id), `run ${String(run)}, ${String(name)}`),
    );
  }
  return names;
}

/**
 * Compares every table of the plan between the source files and the target: row count and
 * an order-independent checksum of the copied columns per table, and per series (points
 * and checksum) for tables keyed by series. Reads both sides in pages. Returns the checks,
 * tables first; `ok` is false where the sides differ.
 */
export async function verifyTables(target: SqlDb, plan: readonly TablePlan[]): Promise<Check[]> {
  const tables: Check[] = [];
  const series: Check[] = [];
  const names = seriesNames(plan);
  for (const t of plan) {
    const columns = t.parts[0]?.columns ?? t.target.columns;
    const seriesAt = columns.indexOf('series_id');
    const pointsAt = columns.indexOf('points');
    const source = new TableDigests(seriesAt, pointsAt);
    for (const part of t.parts) readSource(part, columns, (values) => source.add(values));
    const copied = new TableDigests(seriesAt, pointsAt);
    await readTarget(target, t.target.name, t.target.key, columns, copied);
    const count = (d: RowDigest) => ({ count: d.rows, digest: d });
    tables.push(check(`table ${t.target.name}`, count(source.all), count(copied.all)));
    const ids = new Set([...source.series.keys(), ...copied.series.keys()]);
    for (const id of [...ids].sort((a, b) => a - b)) {
      const s = source.series.get(id) ?? { digest: new RowDigest(), points: 0 };
      const c = copied.series.get(id) ?? { digest: new RowDigest(), points: 0 };
      series.push(
        check(
          `series ${id} (${names.get(id) ?? 'no series row'}) ${t.target.name}`,
          { count: s.points, digest: s.digest },
          { count: c.points, digest: c.digest },
        ),
      );
    }
  }
  return [...tables, ...series];
}
