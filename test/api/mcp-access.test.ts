/**
 * Who may call which MCP tool: write tools need the member role as their HTTP routes do, and
 * an access token (a principal with scopes) `runs:write`; read tools `runs:read` or
 * `runs:write`. stop_run records what POST /api/runs/stop records.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/roles.js';
import type { Principal } from '../../src/domain/types.js';
import { callTool as callToolDirect } from '../../src/mcp/mcp-server.js';
import { createApiKey } from '../../src/services/api-keys.js';
import { mcpClient, toolOk, toolRefused } from '../helpers/mcp-client.js';
import { createRun, getHistory } from '../helpers/run-api.js';
import { call, makeTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let base: string;
const clients: Client[] = [];
const keyOf = async (role: Role) =>
  (await createApiKey(t.stores.metadata, { orgSlug: t.org, userName: `u-${role}`, name: 'k', expiresAt: null, role }))
    .key;
const connect = async (key: string) => {
  const c = await mcpClient(base, key);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  t = await makeTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

describe('roles', () => {
  it('refuses every write tool to a viewer with FORBIDDEN_ROLE, and lets it read', async () => {
    const run = await createRun(t.app, t.key, { runName: 'r', projectName: 'acc' });
    const viewer = await connect(await keyOf('viewer'));
    for (const [name, args] of [
      ['stop_run', { runId: run.runId }],
      ['update_tags', { runId: run.runId, tags: ['v'] }],
      ['update_notes', { runId: run.runId, notes: 'v' }],
    ] as const) {
      const refused = await toolRefused(viewer, name, args, 'FORBIDDEN_ROLE');
      expect(refused.error).toContain('member');
    }
    expect(await toolOk(viewer, 'get_run', { runId: run.runId })).toMatchObject({ status: 'RUNNING', tags: [] });
  });

  it('lets a member write: tags, notes, and stop_run exactly as POST /api/runs/stop', async () => {
    const member = await connect(await keyOf('member'));
    const run = await createRun(t.app, t.key, { runName: 'r2', projectName: 'acc' });
    const http = await createRun(t.app, t.key, { runName: 'r3', projectName: 'acc' });
    expect(await toolOk(member, 'update_tags', { runId: run.runId, tags: ['a', 'b', 'a'] })).toEqual({
      success: true,
      runId: run.runId,
    });
    expect(await toolOk(member, 'update_notes', { runId: run.runId, notes: 'looks good' })).toEqual({
      success: true,
      runId: run.runId,
    });
    const details = await toolOk(member, 'get_run', { runId: run.runId });
    expect(details).toMatchObject({ tags: ['a', 'b'], notes: 'looks good' });
    expect(await toolOk(member, 'stop_run', { runId: run.runId })).toEqual({
      success: true,
      runId: run.runId,
      status: 'CANCELLED',
    });
    expect((await call(t.app, 'POST', '/api/runs/stop', t.key, { runId: http.runId })).status).toBe(200);
    // The same change but for who made it: the event's ids, time and actor differ.
    const strip = (events: Awaited<ReturnType<typeof getHistory>>) =>
      events.map((e) => ({
        fromStatus: e.fromStatus,
        toStatus: e.toStatus,
        source: e.source,
        reason: (e.metadata as { reason?: unknown } | null)?.reason,
      }));
    const byTool = strip(await getHistory(t.app, t.key, run.runId));
    const byRoute = strip(await getHistory(t.app, t.key, http.runId));
    expect(byTool).toEqual(byRoute);
    expect(byTool.at(-1)).toEqual({
      fromStatus: 'RUNNING',
      toStatus: 'CANCELLED',
      source: 'user',
      reason: 'stopped by a user',
    });
    await toolRefused(member, 'stop_run', { runId: run.runId }, 'CONFLICT');
  });
});

describe('scopes of an access token', () => {
  const principal = (scopes: readonly string[] | null, role: Role = 'owner'): Principal => ({
    orgId: 1,
    orgSlug: 'acme',
    userId: 1,
    keyId: null,
    keyExpiresAt: null,
    role,
    keyRole: null,
    scopes,
  });
  const run = (scopes: readonly string[] | null, name: string, args: Record<string, unknown>) =>
    callToolDirect({ deps: t.deps, principal: principal(scopes) }, name, args, (err) => {
      throw err;
    });
  const codeOf = (result: Awaited<ReturnType<typeof run>>) =>
    result.isError ? (JSON.parse((result.content[0] as { text: string }).text) as { code: string }).code : 'OK';

  it('refuses write tools to a runs:read token with INSUFFICIENT_SCOPE, before anything is looked up', async () => {
    for (const [name, args] of [
      ['stop_run', { runId: 1 }],
      ['update_tags', { runId: 1, tags: ['x'] }],
      ['update_notes', { runId: 1, notes: null }],
    ] as const) {
      const result = await run(['runs:read'], name, args);
      expect(codeOf(result), name).toBe('INSUFFICIENT_SCOPE');
      expect((result.content[0] as { text: string }).text).toContain('runs:write');
    }
  });

  it('refuses read tools to a token with neither scope, and lets runs:read or runs:write read', async () => {
    expect(codeOf(await run([], 'list_projects', {}))).toBe('INSUFFICIENT_SCOPE');
    expect(codeOf(await run(['openid'], 'list_projects', {}))).toBe('INSUFFICIENT_SCOPE');
    expect(codeOf(await run(['runs:read'], 'list_projects', {}))).toBe('OK');
    expect(codeOf(await run(['runs:write'], 'list_projects', {}))).toBe('OK');
    expect(codeOf(await run(null, 'list_projects', {}))).toBe('OK');
  });

  it('lets a runs:write token write, still within its role', async () => {
    expect(codeOf(await run(['runs:write'], 'stop_run', { runId: 999_999 }))).toBe('NOT_FOUND');
    const viewer = await callToolDirect(
      { deps: t.deps, principal: principal(['runs:write'], 'viewer') },
      'stop_run',
      { runId: 1 },
      () => {},
    );
    expect(codeOf(viewer)).toBe('FORBIDDEN_ROLE');
  });
});
