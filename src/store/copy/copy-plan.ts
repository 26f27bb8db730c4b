import { targetTables, type TargetTable } from '../postgres/postgres-catalog.js';
import type { SqlDb } from '../sql/db.js';
import type { SourceTable, SqliteSource } from '../sqlite/sqlite-source.js';
import { PROGRESS_TABLE } from './copy-progress.js';

/** One source file's rows of one table. */
export interface CopyPart {
  /** `<table>:<file label>`: the part's item in the progress table. */
  item: string;
  source: SqliteSource;
  table: SourceTable;
  /** The columns both sides have, in the target's order. */
  columns: string[];
  rows: number;
}

/** One target table and the source parts that fill it. */
export interface TablePlan {
  target: TargetTable;
  parts: CopyPart[];
}

/** A source file with the label its progress items carry (`metadata`, `series`). */
export interface LabelledSource {
  label: string;
  source: SqliteSource;
}

/** Tables that are the databases' own bookkeeping: never copied (the target has its own). */
const NOT_COPIED = ['schema_migrations', PROGRESS_TABLE];

/**
 * Pairs every table of the target schema (parents before the tables that refer to them) with
 * the rows each source file holds of it. Returns the plan and the source tables the target
 * lacks (nothing of them is copied). Source and target must be at the same migration.
 */
export async function planCopy(
  target: SqlDb,
  sources: readonly LabelledSource[],
): Promise<{ plan: TablePlan[]; unknown: string[] }> {
  const tables = await targetTables(target, NOT_COPIED);
  const known = new Set(tables.map((t) => t.name));
  const unknown = new Set<string>();
  const bySource = sources.map((s) => ({ ...s, tables: new Map(s.source.tables().map((t) => [t.name, t])) }));
  for (const s of bySource) {
    for (const name of s.tables.keys()) if (!known.has(name) && !NOT_COPIED.includes(name)) unknown.add(name);
  }
  const plan = tables.map((target) => {
    const parts: CopyPart[] = [];
    for (const s of bySource) {
      const table = s.tables.get(target.name);
      if (!table) continue;
      const rows = s.source.count(table.name);
      if (rows === 0) continue;
      const columns = target.columns.filter((c) => table.columns.includes(c));
      parts.push({ item: `${target.name}:${s.label}`, source: s.source, table, columns, rows });
    }
    return { target, parts };
  });
  return { plan, unknown: [...unknown] };
}
