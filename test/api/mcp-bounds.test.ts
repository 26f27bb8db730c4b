/**
 * MCP answers are bounded (STEPWISE_MCP_MAX_BYTES, here 8 KiB; items by limit) with `total`
 * and `hasMore`, and hostile tool arguments are refused as tool errors naming the argument,
 * or as a 4xx for what the HTTP body rules refuse: never a 500, never an INTERNAL.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/mcp-server.js';
import { ingestOk, metricLine, pyNdjson } from '../helpers/ingest-api.js';
import { FIELD_VALUES } from '../helpers/hostile-inputs.js';
import { mcpClient, toolOk, toolRefused } from '../helpers/mcp-client.js';
import { createRun } from '../helpers/run-api.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

const CAP = 8192;
let t: TestApp;
let base: string;
let client: Client;
let runId: number;

beforeAll(async () => {
  t = await makeTestApp({ STEPWISE_MCP_MAX_BYTES: String(CAP) });
  const run = await createRun(t.app, t.key, { runName: 'long', projectName: 'bp' });
  runId = run.runId;
  const lines = Array.from({ length: 1000 }, (_, s) => metricLine(s, { loss: 1 / (s + 1) }));
  await ingestOk(t.app, t.key, 'metrics', { runId }, pyNdjson(lines));
  const config = JSON.stringify({ blob: 'c'.repeat(1000) });
  for (let i = 0; i < 12; i++) await createRun(t.app, t.key, { runName: `wide-${i}`, projectName: 'bp', config });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = await mcpClient(base, t.key);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('bounds', () => {
  it('cuts a metric history at the byte bound and says it is truncated, with the points that exist', async () => {
    const answer = await toolOk<{ points: { step: number }[] }>(client, 'get_metric_history', {
      runId,
      logName: 'loss',
      maxPoints: 1000,
    });
    expect(answer).toMatchObject({ sampled: false, truncated: true, hasMore: true, total: 1000 });
    expect(answer.points.length).toBeGreaterThan(10);
    expect(answer.points.length).toBeLessThan(1000);
    expect(answer.points.map((p) => p.step)).toEqual(answer.points.map((_, i) => i));
    expect(bytes(answer)).toBeLessThanOrEqual(CAP);
  });

  it('cuts a run search at the byte bound: hasMore with the total, and the next page follows', async () => {
    const first = await toolOk<{ runs: { name: string }[] }>(client, 'search_runs', { projectName: 'bp', limit: 50 });
    expect(first).toMatchObject({ total: 13, hasMore: true });
    expect(first.runs.length).toBeGreaterThan(0);
    expect(first.runs.length).toBeLessThan(13);
    expect(bytes(first)).toBeLessThanOrEqual(CAP);
    const next = await toolOk<{ runs: { name: string }[] }>(client, 'search_runs', {
      projectName: 'bp',
      limit: 50,
      offset: first.runs.length,
    });
    expect(next.runs[0]?.name).not.toBe(first.runs.at(-1)?.name);
  });

  it('pages by items with total and hasMore', async () => {
    const one = await toolOk(client, 'search_runs', { projectName: 'bp', limit: 1, configKeys: [] });
    expect(one).toMatchObject({ total: 13, hasMore: true });
    const last = await toolOk(client, 'search_runs', { projectName: 'bp', limit: 1, offset: 12, configKeys: [] });
    expect(last).toMatchObject({ total: 13, hasMore: false });
  });

  it('refuses, as RESULT_TOO_LARGE, an answer whose fixed part alone passes the bound', async () => {
    const big = await createRun(t.app, t.key, {
      runName: 'huge-config',
      projectName: 'bp2',
      config: JSON.stringify({ blob: 'd'.repeat(CAP) }),
    });
    const refused = await toolRefused(client, 'get_run', { runId: big.runId }, 'RESULT_TOO_LARGE');
    expect(refused.error).toContain('STEPWISE_MCP_MAX_BYTES');
  });
});

/** One tools/call over HTTP as the transport receives it. */
async function rawCall(name: string, args: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${t.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The valid arguments of each tool, aimed at the seeded run. */
const VALID: Record<string, Record<string, unknown>> = {
  list_projects: {},
  search_runs: { projectName: 'bp' },
  get_run: { runId: 1 },
  get_metric_names: { projectName: 'bp' },
  get_metric_history: { runId: 1, logName: 'loss' },
  get_statistics: { runId: 1 },
  compare_runs: { projectName: 'bp', logName: 'loss', runIds: [1] },
  get_leaderboard: { projectName: 'bp', logName: 'loss' },
  get_logs: { runId: 1 },
  list_files: { runId: 1 },
  list_alerts: { runId: 1 },
  update_tags: { runId: 1, tags: ['t'] },
  update_notes: { runId: 1, notes: 'n' },
  stop_run: { runId: 1 },
};

/** The slow values (multi-megabyte strings) are sent to one argument only. */
const QUICK_VALUES = FIELD_VALUES.filter(([label]) => !label.includes('MB string'));

describe('hostile arguments', () => {
  it('names the argument of a wrong type or out of bounds, as VALIDATION_FAILED', async () => {
    for (const [name, args, field] of [
      ['get_run', { runId: -1 }, 'runId'],
      ['get_run', { runId: '1' }, 'runId'],
      ['get_run', { runId: 1.5 }, 'runId'],
      ['get_run', {}, 'runId'],
      ['search_runs', { projectName: '' }, 'projectName'],
      ['search_runs', { projectName: 'bp', limit: 0 }, 'limit'],
      ['search_runs', { projectName: 'bp', tags: ['ok', ''] }, 'tags.1'],
      ['update_notes', { runId, notes: 'x'.repeat(10_001) }, 'notes'],
      ['update_tags', { runId, tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'tags'],
      ['get_metric_history', { runId, logName: 'loss', around: { step: 1 } }, 'around.window'],
      ['get_leaderboard', { projectName: 'bp', logName: 'loss', aggregation: 'BOGUS' }, 'aggregation'],
    ] as const) {
      const refused = await toolRefused(client, name, args, 'VALIDATION_FAILED');
      expect(refused.error.startsWith(`${field}:`), `${name}: ${refused.error}`).toBe(true);
    }
  });

  it('refuses bad filters and sorts as the run search does (BAD_REQUEST), and an unknown tool (NOT_FOUND)', async () => {
    await toolRefused(client, 'search_runs', { projectName: 'bp', filter: '{not json' }, 'BAD_REQUEST');
    await toolRefused(client, 'search_runs', { projectName: 'bp', sort: 'no such field' }, 'BAD_REQUEST');
    await toolRefused(client, 'search_runs', { projectName: 'bp', status: ['BOGUS'] }, 'BAD_REQUEST');
    await toolRefused(client, 'drop_tables', {}, 'NOT_FOUND');
  });

  it('has valid arguments for every tool', () => {
    expect(Object.keys(VALID).sort()).toEqual(TOOLS.map((x) => x.name).sort());
  });

  it.each(TOOLS.map((x) => ({ name: x.name, fields: Object.keys(x.input) })))(
    '$name never answers a 5xx or an INTERNAL tool error, whatever each argument holds',
    async ({ name, fields }) => {
      const valid = VALID[name]!;
      for (const field of fields) {
        const values = name === 'update_notes' && field === 'notes' ? FIELD_VALUES : QUICK_VALUES;
        for (const [label, value] of values) {
          const { status, body } = await rawCall(name, { ...valid, [field]: value });
          const what = `${name}.${field} = ${label}: ${status} ${JSON.stringify(body).slice(0, 300)}`;
          expect(status, what).toBeLessThan(500);
          if (status !== 200) {
            expect(body.code, what).toMatch(/^[A-Z_]+$/);
            continue;
          }
          const result = body.result as { isError?: boolean; content: { text: string }[] } | undefined;
          expect(result, what).toBeDefined();
          if (result!.isError) expect(JSON.parse(result!.content[0]!.text).code, what).not.toBe('INTERNAL');
        }
      }
    },
  );

  it('refuses arguments that are not an object as VALIDATION_FAILED', async () => {
    for (const args of [null, [1, 2], 'text', 7]) {
      const { status, body } = await rawCall('get_run', args);
      const what = JSON.stringify(body);
      expect(status, what).toBe(200);
      const result = body.result as { isError?: boolean; content: { text: string }[] } | undefined;
      if (result) expect(JSON.parse(result.content[0]!.text).code, what).toBe('VALIDATION_FAILED');
      else expect(body.error, what).toBeDefined();
    }
  });
});
