/**
 * Moving data out of an embedded install (issue 30): `stepwise backup` while a server ingests,
 * `stepwise restore` into a new data dir, and `stepwise copy` of a data dir with 1,000,000
 * points, files and a fork into PostgreSQL + S3, killed halfway and run again. Servers on the
 * restored and copied data must answer the acceptance reads as the original did.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptanceReads,
  addLinesAndFiles,
  cli,
  cliKilledWhen,
  createRun,
  fileSums,
  ingestSteps,
  metricsBody,
  valueAt,
} from '../helpers/data-move.js';
import { http, ingestHttp } from '../helpers/http-client.js';
import { S3_CREDENTIALS, startS3TestServer, type S3TestServer } from '../helpers/s3-test-server.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';
import { emptyPostgresUrl, postgresTestUrl } from '../helpers/test-database.js';

const NAMES = ['train/loss', 'train/acc'];
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const servers: SpawnedServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  await buildDist();
}, 300_000);
afterAll(async () => {
  for (const s of servers) await s.stop({ keepData: true });
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function serve(args: string[], options: Parameters<typeof spawnServer>[1] = {}): Promise<SpawnedServer> {
  const s = await spawnServer(args, options);
  servers.push(s);
  dirs.push(s.dataDir);
  return s;
}

describe('backup and restore', () => {
  it('snapshots a server under sustained ingest; the restore holds every point acknowledged before it, with no gap', async () => {
    const original = await serve([]);
    const runId = await createRun(original, { projectName: 'bk', runName: 'under-load' });
    const sums = await addLinesAndFiles(original, runId, 'bk', 200, 3);
    const work = tmp('stepwise-backup-');
    dirs.push(work);
    // One client writes 500 steps a request, each after the previous one's answer.
    let acked = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const res = await ingestHttp(
          original.baseUrl,
          original.key,
          'metrics',
          runId,
          'bk',
          metricsBody(NAMES, acked, acked + 500),
        );
        expect(res.status).toBe(200);
        acked += 500;
      }
    })();
    while (acked < 20_000) await new Promise((r) => setTimeout(r, 20));
    const ackedBefore = acked;
    const backup = await cli(['backup', '--data', original.dataDir, '--out', path.join(work, 'snap.tar')]);
    const ackedAfter = acked;
    stop = true;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(ackedAfter).toBeGreaterThan(ackedBefore);

    const restoredDir = path.join(work, 'restored');
    const restore = await cli(['restore', '--in', path.join(work, 'snap.tar'), '--data', restoredDir]);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await serve([], { dataDir: restoredDir, key: original.key });
    const stats = await http(restored.baseUrl, 'GET', `/api/runs/statistics?runId=${runId}&projectName=bk`, {
      key: original.key,
    });
    const metrics = stats.body.metrics as { logName: string; count: number; last: { step: number; value: number } }[];
    expect(metrics.map((m) => m.logName)).toEqual(['train/acc', 'train/loss']);
    for (const m of metrics) {
      // Every acknowledged point up to the snapshot, steps 0..count-1 without a hole.
      expect(m.count).toBeGreaterThanOrEqual(ackedBefore);
      expect(m.count).toBeLessThanOrEqual(ackedAfter);
      expect(m.last).toEqual({ step: m.count - 1, value: valueAt(m.logName, m.count - 1) });
      const exact = await http(
        restored.baseUrl,
        'GET',
        `/api/runs/metrics?runId=${runId}&projectName=bk&logName=${m.logName}&stepMin=${ackedBefore - 5000}&stepMax=${ackedBefore - 1}&limit=10000`,
        { key: original.key },
      );
      const points = exact.body.metrics as { step: number; value: number }[];
      expect(points).toHaveLength(5000);
      expect(points.every((p, i) => p.step === ackedBefore - 5000 + i && p.value === valueAt(m.logName, p.step))).toBe(
        true,
      );
    }
    expect(await fileSums(restored, runId, 'bk')).toEqual(sums);

    // Quiet now: a second backup's restore answers every read exactly as the original.
    const again = await cli(['backup', '--data', original.dataDir, '--out', path.join(work, 'quiet.tar')]);
    expect(again.code, again.stderr).toBe(0);
    const refused = await cli(['restore', '--in', path.join(work, 'quiet.tar'), '--data', restoredDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not empty/);
    const quietDir = path.join(work, 'quiet');
    expect((await cli(['restore', '--in', path.join(work, 'quiet.tar'), '--data', quietDir])).code).toBe(0);
    const quiet = await serve([], { dataDir: quietDir, key: original.key });
    expect(await acceptanceReads(quiet, 'bk')).toEqual(await acceptanceReads(original, 'bk'));
    expect(await fileSums(quiet, runId, 'bk')).toEqual(sums);
  });

  it('refuses an --out inside the data dir (exit code 2, a sentence naming both) and writes nothing', async () => {
    const original = await serve([]);
    const link = path.join(tmp('stepwise-backup-link-'), 'to-data');
    dirs.push(path.dirname(link));
    fs.symlinkSync(original.dataDir, link);
    fs.mkdirSync(path.join(original.dataDir, 'backups'));
    const before = fs.readdirSync(original.dataDir).sort();
    for (const out of [
      path.join(original.dataDir, 'snap.tar'),
      path.join(original.dataDir, 'backups', 'snap.tar'),
      path.join(link, 'snap.tar'),
    ]) {
      const res = await cli(['backup', '--data', original.dataDir, '--out', out]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`--out ${out} is inside the data dir ${original.dataDir}`);
    }
    expect(fs.readdirSync(original.dataDir).sort()).toEqual(before);
    expect(fs.readdirSync(path.join(original.dataDir, 'backups'))).toEqual([]);
  });
});

describe.skipIf(postgresTestUrl() === undefined)('copy into PostgreSQL + S3', () => {
  let s3: S3TestServer;
  let database: { url: string; drop: () => Promise<void> };
  const s3Env = {
    AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
  };
  beforeAll(async () => {
    s3 = await startS3TestServer();
    database = await emptyPostgresUrl();
  });
  afterAll(async () => {
    await s3?.stop();
    await database?.drop();
  });

  it('copies 1,000,000 points, files and a fork, resumes after a kill, and the copy answers as the original', async () => {
    const original = await serve([]);
    const parent = await createRun(original, { projectName: 'mv', runName: 'parent', config: '{"lr": 0.1}' });
    await ingestSteps(original, parent, 'mv', NAMES, 0, 400_000, 20_000);
    const child = await createRun(original, {
      projectName: 'mv',
      runName: 'fork',
      forkRunId: parent,
      forkStep: 200_000,
    });
    await ingestSteps(original, child, 'mv', NAMES, 200_001, 300_001, 20_000);
    const sums = await addLinesAndFiles(original, parent, 'mv', 500, 4);
    await addLinesAndFiles(original, child, 'mv', 100, 2);
    const before = await acceptanceReads(original, 'mv');
    await original.stop({ keepData: true });

    const args = [
      'copy',
      '--data',
      original.dataDir,
      '--to-database-url',
      database.url,
      '--to-blob-url',
      s3.blobUrl('moved'),
    ];
    // Killed once about half of the metric chunks (1,000,000 / 128 points each) are in.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const chunks = async () => {
      const exists = await db.query<{ yes: boolean }>("SELECT to_regclass('metric_chunks') IS NOT NULL AS yes");
      if (!exists.rows[0]!.yes) return 0;
      return Number((await db.query<{ n: string }>('SELECT COUNT(*) AS n FROM metric_chunks')).rows[0]!.n);
    };
    try {
      await cliKilledWhen([...args, '--batch-rows', '50'], async () => (await chunks()) >= 3500, s3Env);
      expect((await db.query("SELECT item FROM copy_progress WHERE item = 'complete'")).rowCount).toBe(0);
      const copiedBefore = await chunks();
      expect(copiedBefore).toBeGreaterThanOrEqual(3500);
      expect(copiedBefore).toBeLessThan(1_000_000 / 128);
    } finally {
      await db.end();
    }

    const copied = await cli(args, s3Env);
    expect(copied.code, `${copied.stdout}\n${copied.stderr}`).toBe(0);
    expect(copied.stdout).toMatch(/^ok +table runs +2 /m);
    expect(copied.stdout).toMatch(/^ok +table metric_chunks /m);
    expect(copied.stdout).toMatch(/^ok +table data_lines +40 /m);
    expect(copied.stdout).toMatch(/^ok +table console_lines +600 /m);
    expect(copied.stdout).toMatch(/^ok +series \d+ \(run \d+, train\/loss\) metric_chunks +400000 /m);
    expect(copied.stdout).toMatch(/^ok +series \d+ \(run \d+, train\/acc\) metric_chunks +100000 /m);
    expect(copied.stdout).toMatch(/^ok +blob /m);
    expect(copied.stdout).toMatch(/verification ok/);
    expect(copied.stdout).not.toMatch(/MISMATCH/);

    // Run again, the finished copy only verifies; a copy from elsewhere is refused.
    const again = await cli(args, s3Env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/verification ok/);
    const elsewhere = tmp('stepwise-elsewhere-');
    dirs.push(elsewhere);
    fs.cpSync(original.dataDir, elsewhere, { recursive: true });
    const other = await cli(['copy', '--data', elsewhere, '--to-database-url', database.url], s3Env);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds a copy from/);

    const copy = await serve(['--database-url', database.url, '--blob-url', s3.blobUrl('moved')], {
      key: original.key,
      env: s3Env,
    });
    expect(await acceptanceReads(copy, 'mv')).toEqual(before);
    expect(await fileSums(copy, parent, 'mv')).toEqual(sums);
    // Identities moved past the copied ids: a new run gets the next id and number.
    const next = await http(copy.baseUrl, 'POST', '/api/runs/create', {
      key: original.key,
      json: { projectName: 'mv', runName: 'after the move' },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.runId).toBe(child + 1);
    expect(next.body.number).toBe(3);
    await ingestSteps(copy, next.body.runId as number, 'mv', NAMES, 0, 10);
    await addLinesAndFiles(copy, next.body.runId as number, 'mv', 3, 1);
  });
});
