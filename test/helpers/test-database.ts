/**
 * Fresh, isolated PostgreSQL databases for tests. Each worker keeps the databases it made
 * (clones of the migrated template from test/setup/postgres-global.ts): drop() empties one
 * (every table but schema_migrations, identities restarted, ≈ 20 ms) and hands it to the
 * next test, instead of cloning again (≈ 150 ms) or migrating an empty one (≈ 300 ms).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import { openPostgres } from '../../src/store/postgres/postgres-db.js';
import type { SqlDb } from '../../src/store/sql/db.js';

/** The test server's superuser URL, or undefined when PostgreSQL tests are skipped. */
export function postgresTestUrl(): string | undefined {
  return inject('postgresUrl') || undefined;
}

/** Returns the URL with another database name (query parameters kept). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

let admin: pg.Pool | undefined;
let next = 0;
const idle: string[] = [];

/** The statements that empty a database of the template's shape (built once per worker). */
async function resetSql(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
    );
    const sequences = await client.query<{ name: string }>(
      "SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'",
    );
    return [
      'BEGIN',
      // Skip foreign-key checks, so the tables can be emptied in any order.
      'SET LOCAL session_replication_role = replica',
      ...tables.rows.map((t) => `DELETE FROM "${t.name}"`),
      ...sequences.rows.map((s) => `ALTER SEQUENCE "${s.name}" RESTART`),
      'COMMIT',
    ].join(';\n');
  } finally {
    await client.end();
  }
}

let reset: Promise<string> | undefined;

/** A fresh migrated database as a URL; drop() empties it for reuse once nothing uses it. */
export async function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = postgresTestUrl();
  if (base === undefined) throw new Error('no PostgreSQL server for tests');
  let name = idle.pop();
  if (name === undefined) {
    admin ??= new pg.Pool({ connectionString: base, max: 1 });
    name = `t_${process.pid}_${next++}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  }
  const url = withDatabase(base, name);
  const own = name;
  return {
    url,
    drop: async () => {
      await emptyDatabase(url);
      idle.push(own);
    },
  };
}

/** Empties a database made from the template (see resetSql). */
async function emptyDatabase(url: string): Promise<void> {
  reset ??= resetSql(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(await reset);
  } finally {
    await client.end();
  }
}

/** A new empty database (no tables) as a URL; drop() removes it, closing what still uses it. */
export async function emptyPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = postgresTestUrl();
  if (base === undefined) throw new Error('no PostgreSQL server for tests');
  admin ??= new pg.Pool({ connectionString: base, max: 1 });
  const name = `e_${process.pid}_${next++}`;
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    url: withDatabase(base, name),
    drop: async () => void (await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * A store-suite database that stays open for a whole test file: `empty()` resets it (every
 * table emptied, identities restarted, as a fresh clone of the template) and returns its
 * SqlDb, so each test starts on an empty migrated database without opening a pool, new
 * connections and the migration check again. `close()` after the file's last test.
 */
export function reusedPostgresDb(): { empty: () => Promise<SqlDb>; close: () => Promise<void> } {
  let opened: Promise<{ db: SqlDb; resetter: pg.Client; drop: () => Promise<void> }> | undefined;
  let used = false;
  return {
    empty: async () => {
      opened ??= (async () => {
        const fresh = await freshPostgresUrl();
        const resetter = new pg.Client({ connectionString: fresh.url });
        await resetter.connect();
        reset ??= resetSql(fresh.url);
        return { db: await openPostgres(fresh.url), resetter, drop: fresh.drop };
      })();
      const { db, resetter } = await opened;
      if (used) await resetter.query(await reset!);
      used = true;
      return db;
    },
    close: async () => {
      if (!opened) return;
      const { db, resetter, drop } = await opened;
      await resetter.end();
      await db.close();
      await drop();
    },
  };
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * Opens a fresh migrated SQLite database at `file` (whose directory must exist): a copy of
 * one database this worker migrated once, so that a store suite opening hundreds of them
 * does not run every migration for each.
 */
export async function openMigratedSqlite(file: string): Promise<SqlDb> {
  const { openSqlite } = await import('../../src/store/sqlite/sqlite-db.js');
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const template = path.join(dir, 'template.db');
    const db = openSqlite(template);
    await migrate(db);
    await db.close();
    return template;
  })();
  fs.copyFileSync(await sqliteTemplate, file);
  return openSqlite(file);
}

/** An engine's fresh, unmigrated database for store tests that drive SqlDb directly, and its clean-up. */
export interface RawEngine {
  name: string;
  open: () => Promise<{ db: SqlDb; done: () => Promise<void> }>;
}

/** SQLite in a temp dir named after `prefix`, and PostgreSQL when the test setup started one. */
export function rawEngines(prefix: string): RawEngine[] {
  const sqlite: RawEngine = {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      const { openSqlite } = await import('../../src/store/sqlite/sqlite-db.js');
      const db = openSqlite(path.join(dir, 'series.db'));
      return { db, done: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
  };
  if (postgresTestUrl() === undefined) return [sqlite];
  const postgres: RawEngine = {
    name: 'postgres',
    open: async () => {
      const fresh = await freshPostgresUrl();
      return { db: await openPostgres(fresh.url), done: fresh.drop };
    },
  };
  return [sqlite, postgres];
}
