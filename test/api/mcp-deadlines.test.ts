/**
 * /mcp answers within the API's bounds and deadlines: a trickling body is cut with 408 at
 * the body deadline, a body over the JSON limit is a 413, and a run search past
 * STEPWISE_QUERY_TIMEOUT is a QUERY_TIMEOUT tool error (short settings here).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, toolRefused } from '../helpers/mcp-client.js';
import { createRun, tenAtATime } from '../helpers/run-api.js';
import { chunk, openSlowRequest } from '../helpers/slow-client.js';
import { makeTestApp, type TestApp } from '../helpers/test-app.js';

const BODY_TIMEOUT_S = 1;
const JSON_LIMIT = 64 * 1024;
let t: TestApp;
let base: string;
let client: Client;

beforeAll(async () => {
  t = await makeTestApp({
    STEPWISE_BODY_TIMEOUT: `${BODY_TIMEOUT_S}s`,
    STEPWISE_JSON_BODY_LIMIT: String(JSON_LIMIT),
    STEPWISE_QUERY_TIMEOUT: '100ms',
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = await mcpClient(base, t.key);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const headers = () => ({
  authorization: `Bearer ${t.key}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

describe('/mcp deadlines and limits', () => {
  it('cuts a trickling body with 408 REQUEST_TIMEOUT at the body deadline', async () => {
    const port = Number(new URL(base).port);
    const slow = openSlowRequest(port, 'POST', '/mcp', { ...headers(), 'transfer-encoding': 'chunked' });
    const timer = setInterval(() => slow.write(chunk('{"j')), 300);
    const outcome = await slow.outcome;
    clearInterval(timer);
    expect(outcome.status).toBe(408);
    expect(JSON.parse(outcome.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(outcome.afterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_S * 1000 - 100);
    expect(outcome.afterMs).toBeLessThan(BODY_TIMEOUT_S * 1000 + 3000);
  });

  it('refuses a body over the JSON limit with 413', async () => {
    const big = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_projects', arguments: {} } };
    const body = JSON.stringify({ ...big, pad: 'x'.repeat(JSON_LIMIT) });
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: headers(), body });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('stops a run search past STEPWISE_QUERY_TIMEOUT: a QUERY_TIMEOUT tool error asking for a narrower one', async () => {
    const config = JSON.stringify(
      Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`key_${j}`, 'v'.repeat(24)])),
    );
    await tenAtATime(400, (i) => createRun(t.app, t.key, { runName: `r${i}`, projectName: 'slow', config }));
    const filter = {
      $or: Array.from({ length: 200 }, (_, i) => ({ [`config.key_${i % 40}`]: { $in: ['a', `b${i}`] } })),
    };
    const refused = await toolRefused(
      client,
      'search_runs',
      { projectName: 'slow', sort: 'config.key_1', filter: JSON.stringify(filter) },
      'QUERY_TIMEOUT',
    );
    expect(refused.error).toContain('narrow');
    // The deadline guards against a hang: seeding 400 runs took 0.5-13 s in CI runs and 55 s (one
    // at a time) at a load average of 15 on 2 cores.
  }, 300_000);
});
