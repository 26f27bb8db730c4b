import type { SqlDb, SqlExecutor } from '../sql/db.js';

/** A table of the target database: its columns in order and those filled by an identity. */
export interface TargetTable {
  name: string;
  columns: string[];
  /** Primary-key columns in key order (empty when the table has none). */
  key: string[];
  identity: string[];
}

/**
 * The tables of the current schema, read from PostgreSQL's catalog (so tables added by later
 * migrations are found), each after every table its foreign keys refer to. Excludes `skip`.
 */
export async function targetTables(db: SqlDb, skip: readonly string[]): Promise<TargetTable[]> {
  const columns = await db.all<{ table_name: string; column_name: string; is_identity: string }>(
    `SELECT table_name, column_name, is_identity FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const keys = await db.all<{ table_name: string; column_name: string }>(
    `SELECT c.relname AS table_name, a.attname AS column_name
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
     JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
     WHERE i.indisprimary AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname, k.n`,
  );
  const refs = await db.all<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint f
     JOIN pg_class c ON c.oid = f.conrelid JOIN pg_class p ON p.oid = f.confrelid
     WHERE f.contype = 'f' AND f.connamespace = current_schema()::regnamespace`,
  );
  const tables = new Map<string, TargetTable>();
  for (const c of columns) {
    if (skip.includes(c.table_name)) continue;
    let t = tables.get(c.table_name);
    if (!t) tables.set(c.table_name, (t = { name: c.table_name, columns: [], key: [], identity: [] }));
    t.columns.push(c.column_name);
    if (c.is_identity === 'YES') t.identity.push(c.column_name);
  }
  for (const k of keys) tables.get(k.table_name)?.key.push(k.column_name);
  return referencedFirst([...tables.values()], refs);
}

/** Tables ordered so that each comes after the tables it refers to (name order otherwise). */
function referencedFirst(tables: TargetTable[], refs: readonly { child: string; parent: string }[]): TargetTable[] {
  const out: TargetTable[] = [];
  const placed = new Set<string>();
  const visit = (t: TargetTable, path: Set<string>): void => {
    if (placed.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const r of refs) {
      const parent = r.child === t.name && r.parent !== t.name ? tables.find((x) => x.name === r.parent) : undefined;
      if (parent) visit(parent, path);
    }
    placed.add(t.name);
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  return out;
}

/** True when the table has at least one row. */
export async function hasRows(db: SqlExecutor, table: string): Promise<boolean> {
  return (await db.get(`SELECT 1 AS x FROM ${table} LIMIT 1`)) !== undefined;
}

/**
 * Moves each identity of the table past its largest value, so that rows created after a
 * copy that kept its ids get new ones instead of a duplicate-key error.
 */
export async function advanceIdentities(db: SqlExecutor, table: TargetTable): Promise<void> {
  for (const column of table.identity) {
    await db.get(
      `SELECT setval(pg_get_serial_sequence('${table.name}', '${column}'), COALESCE(MAX(${column}), 0) + 1, false) AS v FROM ${table.name}`,
    );
  }
}
