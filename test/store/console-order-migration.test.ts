/** Migration 5 numbers the console lines stored before it, so old runs page like new ones. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { metadataMigration } from '../../src/store/migrations/001-metadata.js';
import { seriesMigration } from '../../src/store/migrations/002-series.js';
import { migrate } from '../../src/store/migrations/index.js';
import type { SqlDb } from '../../src/store/sql/db.js';
import { SqlSeriesStore } from '../../src/store/sql/series-store.js';
import { openSqlite } from '../../src/store/sqlite/sqlite-db.js';
import { consolePage } from '../conformance/series-suite-helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Opens a database holding only the schema of migrations 1 and 2 (console tables as first shipped). */
async function openAtVersion2(): Promise<SqlDb> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-console-migration-'));
  const db = openSqlite(path.join(dir, 'series.db'));
  await db.run('CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)');
  const sql = (metadataMigration + ';' + seriesMigration)
    .replaceAll('{{autoId}}', db.dialect.autoId)
    .replaceAll('{{clustered}}', db.dialect.clusteredTable);
  for (const statement of sql.split(';')) if (statement.trim()) await db.run(statement);
  await db.runMany('INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)', [[1], [2]]);
  return db;
}

describe('migration 5 (console order)', () => {
  it('numbers stored lines by time, then arrival, per run and per type, and later appends continue them', async () => {
    const db = await openAtVersion2();
    const stored: [number, number, string, number][] = [
      [1, 30, 'INFO', 1],
      [1, 10, 'ERROR', 2],
      [2, 5, 'INFO', 1],
      [1, 10, 'INFO', 3],
      [1, 20, 'ERROR', 4],
    ];
    await db.runMany(
      'INSERT INTO console_lines (run_id, time, log_type, line_number, message, step) VALUES (?, ?, ?, ?, ?, 0)',
      stored.map(([run, time, type, n]) => [run, time, type, n, `m${n}`]),
    );
    expect(await migrate(db)).toContain(5);
    const s = new SqlSeriesStore(db);
    try {
      await s.appendConsole(1, [
        { time: 15, logType: 'INFO', lineNumber: 5, message: 'm5', step: 0 },
        { time: 40, logType: 'ERROR', lineNumber: 6, message: 'm6', step: 0 },
      ]);
      const messages = async (logType: string | null, offset: number) => {
        const page = await consolePage(s, 1, logType, 10, offset);
        return [page.lines.map((l) => l.message), page.total];
      };
      expect(await messages(null, 0)).toEqual([['m2', 'm3', 'm5', 'm4', 'm1', 'm6'], 6]);
      expect(await messages(null, 4)).toEqual([['m1', 'm6'], 6]);
      expect(await messages('ERROR', 1)).toEqual([['m4', 'm6'], 3]);
      expect(await messages('INFO', 0)).toEqual([['m3', 'm5', 'm1'], 3]);
      expect((await consolePage(s, 2, null, 10, 0)).total).toBe(1);
    } finally {
      await s.close();
    }
  });
});
