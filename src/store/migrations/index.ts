import type { SqlDb } from '../sql/db.js';
import { upgradePointsToChunks } from './008-chunks/upgrade.js';
import { metadataMigration } from './001-metadata.js';
import { seriesMigration } from './002-series.js';
import { rollupMigration } from './003-rollups.js';
import { livenessMigration } from './004-liveness.js';
import { consoleOrderMigration } from './005-console-order.js';
import { runSearchMigration } from './006-run-search.js';
import { sessionsMigration } from './007-sessions.js';
import { chunksMigration } from './008-chunks/schema.js';
import { userAdminMigration } from './009-user-admin.js';
import { sessionKeyIndexMigration } from './010-session-key-index.js';
import { savedViewsMigration } from './011-saved-views.js';
import { runsActivityIndexMigration } from './012-runs-activity-index.js';
import { runTrashMigration } from './013-run-trash.js';
import { eventsMigration } from './014-events.js';
import { rolesMigration } from './015-roles.js';
import { oauthMigration } from './016-oauth.js';
import { projectRunCountsMigration } from './018-project-run-counts.js';
import { attemptLimitsMigration } from './019-attempt-limits.js';

/**
 * Numbered, forward-only migrations; `{{name}}` markers are filled from the dialect, and
 * `{{nowMs}}` with the time (ms) the migration runs.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  { version: 1, sql: metadataMigration },
  { version: 2, sql: seriesMigration },
  { version: 3, sql: rollupMigration },
  { version: 4, sql: livenessMigration },
  { version: 5, sql: consoleOrderMigration },
  { version: 6, sql: runSearchMigration },
  { version: 7, sql: sessionsMigration },
  { version: 8, sql: chunksMigration },
  { version: 9, sql: userAdminMigration },
  { version: 10, sql: sessionKeyIndexMigration },
  { version: 11, sql: savedViewsMigration },
  { version: 12, sql: runsActivityIndexMigration },
  { version: 13, sql: runTrashMigration },
  { version: 14, sql: eventsMigration },
  { version: 15, sql: rolesMigration },
  { version: 16, sql: oauthMigration },
  { version: 18, sql: projectRunCountsMigration },
  { version: 19, sql: attemptLimitsMigration },
];

function render(sql: string, db: SqlDb): string {
  return sql
    .replaceAll('{{autoId}}', db.dialect.autoId)
    .replaceAll('{{clustered}}', db.dialect.clusteredTable)
    .replaceAll('{{blob}}', db.dialect.blobType)
    .replaceAll('{{nowMs}}', String(Date.now()));
}

/**
 * Applies every migration newer than the database's version, each in its own transaction,
 * under the database-wide `migrate` lock (servers starting at once take turns; the later
 * ones find nothing to do), then moves metric points left by releases before chunks into
 * chunks (in batches, progress logged; resumes where an interrupted start stopped).
 * Returns the versions applied, oldest first.
 */
export function migrate(db: SqlDb, options: MigrateOptions = {}): Promise<number[]> {
  return db.withLock('migrate', async () => {
    const applied = await migrateLocked(db, options.upTo ?? Infinity);
    if ((options.upTo ?? Infinity) >= 8) {
      await upgradePointsToChunks(db, { log: options.log ?? logLine, batchPoints: options.batchPoints });
    }
    return applied;
  });
}

/** Options of migrate: stop after a version (tests of upgrades), where progress lines go, batch size. */
export interface MigrateOptions {
  upTo?: number;
  log?: (line: string) => void;
  /** Points moved into chunks per transaction at least (008-chunks/upgrade.ts). */
  batchPoints?: number;
}

const logLine = (line: string): void => {
  process.stderr.write(`${JSON.stringify({ level: 'info', time: Date.now(), msg: `migrate: ${line}` })}\n`);
};

async function migrateLocked(db: SqlDb, upTo: number): Promise<number[]> {
  await db.run('CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)');
  // One read finds what is left; an up-to-date database (every start after the first) is done.
  const present = new Set(
    (await db.all<{ version: number | string }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
  );
  const applied: number[] = [];
  for (const m of MIGRATIONS.filter((x) => !present.has(x.version))) {
    if (m.version > upTo) break;
    const done = await db.transaction(async (tx) => {
      const row = await tx.get('SELECT version FROM schema_migrations WHERE version = ?', [m.version]);
      if (row) return false;
      for (const statement of render(m.sql, db).split(';')) {
        if (statement.trim()) await tx.run(statement);
      }
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [m.version, Date.now()]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
