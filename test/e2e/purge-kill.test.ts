/**
 * A purge killed at any moment leaves each run whole in the trash or gone, never half: the
 * server is SIGKILLed while purging trashed runs that have points, log lines and a file,
 * then restarted on the same data dir. A run still in the trash restores with every point,
 * line and file byte; a run gone leaves no series rows, lines, file records or blob files
 * once the restarted server's sweep has finished the purges queued before the kill.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ingestHttp, pause } from '../helpers/http-client.js';
import { buildDist, spawnServer, type SpawnedServer } from '../helpers/spawned-server.js';

const RUNS = 30;
const STEPS = 2000;
const ROUNDS = Number(process.env.STEPWISE_PURGE_KILL_ROUNDS ?? 3);
const PROJECT = 'purge-kill';

let server: SpawnedServer;
beforeAll(async () => {
  await buildDist();
  server = await spawnServer();
}, 120_000);
afterAll(() => server?.stop());

async function ok(method: string, url: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await http(server.baseUrl, method, url, { key: server.key, json });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** A run with STEPS points of one metric, 10 log lines and one uploaded 1 KiB file. */
async function makeRun(i: number): Promise<number> {
  const { runId } = (await ok('POST', '/api/runs/create', { runName: `r${i}`, projectName: PROJECT })) as {
    runId: number;
  };
  const lines = Array.from({ length: STEPS }, (_, step) =>
    JSON.stringify({ time: 1e12 + step, step, data: { m: step * i } }),
  );
  expect((await ingestHttp(server.baseUrl, server.key, 'metrics', runId, PROJECT, lines.join('\n'))).status).toBe(200);
  const logs = Array.from({ length: 10 }, (_, n) =>
    JSON.stringify({ time: 1e12 + n, message: `l${n}`, lineNumber: n, logType: 'INFO' }),
  );
  expect((await ingestHttp(server.baseUrl, server.key, 'logs', runId, PROJECT, logs.join('\n'))).status).toBe(200);
  const files = await http(server.baseUrl, 'POST', '/files', {
    key: server.key,
    json: { files: [{ fileName: 'f.bin', logName: 'files', fileSize: 1024, fileType: 'bin' }] },
    headers: { 'x-run-id': String(runId), 'x-project-name': PROJECT },
  });
  const link = (files.body.files as Record<string, string>[])[0]!['f.bin']!;
  const put = await fetch(link, {
    method: 'PUT',
    body: new Uint8Array(1024).fill(i),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(put.status).toBe(200);
  return runId;
}

/** The run ids with rows in the series file (series, console lines, file records). */
function seriesRows(dataDir: string): { series: Set<number>; lines: Set<number>; files: Set<number> } {
  const db = new Database(path.join(dataDir, 'stepwise-series.db'), { readonly: true });
  try {
    const ids = (sql: string) => new Set(db.prepare(sql).pluck().all().map(Number));
    return {
      series: ids('SELECT DISTINCT run_id FROM series'),
      lines: ids('SELECT DISTINCT run_id FROM console_lines'),
      files: ids('SELECT DISTINCT run_id FROM files'),
    };
  } finally {
    db.close();
  }
}

/** Files under the blob directory. */
function blobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  return fs.existsSync(root)
    ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile())
    : [];
}

describe('a purge killed with SIGKILL', () => {
  it(`leaves each of ${RUNS} runs whole in the trash or gone, in ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const ids: number[] = [];
      for (let i = 0; i < RUNS; i++) ids.push(await makeRun(i + 1));
      await ok('POST', '/api/runs/delete', { runIds: ids });
      const purge = http(server.baseUrl, 'POST', '/api/runs/purge', { key: server.key, json: { runIds: ids } }).catch(
        () => undefined,
      );
      await pause(5 + Math.floor(Math.random() * 40) * (round + 1));
      await server.kill();
      await purge;
      server = await spawnServer([], { dataDir: server.dataDir, key: server.key });
      const trash = (await ok('GET', `/api/runs/trash?projectName=${PROJECT}&limit=1000`)) as {
        runs: { id: number }[];
      };
      const kept = trash.runs.map((r) => r.id).filter((id) => ids.includes(id));
      const gone = ids.filter((id) => !kept.includes(id));
      // The restarted server's first sweep (about 1 s after start) finishes the queued purges.
      let rows = seriesRows(server.dataDir);
      for (
        let waited = 0;
        waited < 20_000 && gone.some((id) => rows.series.has(id) || rows.lines.has(id) || rows.files.has(id));
        waited += 250
      ) {
        await pause(250);
        rows = seriesRows(server.dataDir);
      }
      for (const id of gone) {
        expect(rows.series.has(id) || rows.lines.has(id) || rows.files.has(id), `run ${id} left rows`).toBe(false);
        expect(
          (await http(server.baseUrl, 'POST', '/api/runs/restore', { key: server.key, json: { runIds: [id] } })).status,
        ).toBe(404);
      }
      if (kept.length > 0) await ok('POST', '/api/runs/restore', { runIds: kept });
      for (const id of kept) {
        const stats = (await ok('GET', `/api/runs/statistics?runId=${id}`)) as {
          statistics?: { count: number }[];
        } & Record<string, unknown>;
        expect(JSON.stringify(stats)).toContain(`"count":${STEPS}`);
        expect(((await ok('GET', `/api/runs/logs?runId=${id}`)) as { total: number }).total).toBe(10);
        const files = (await ok('GET', `/api/runs/files?runId=${id}`)) as { files: { url: string }[] };
        const bytes = await fetch(files.files[0]!.url).then((r) => r.arrayBuffer());
        expect(bytes.byteLength).toBe(1024);
      }
      // Blob files left are exactly the kept runs' (one each), earlier rounds' included.
      const live = (await ok('GET', `/api/runs/list?projectName=${PROJECT}&limit=200`)) as { total: number };
      expect(blobFiles(server.dataDir)).toHaveLength(live.total);
      console.log(`round ${round}: ${kept.length} runs kept, ${gone.length} purged`);
    }
  }, 300_000);
});
