import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/mcp-server.js';
import { mcpClient, toolOk } from '../helpers/mcp-client.js';
import { createRun } from '../helpers/run-api.js';
import { getOk } from '../helpers/ingest-api.js';
import { call, useTestApp } from '../helpers/test-app.js';

const NAMES = [
  'list_projects',
  'search_runs',
  'get_run',
  'get_metric_names',
  'get_metric_history',
  'get_statistics',
  'compare_runs',
  'get_leaderboard',
  'get_logs',
  'list_files',
  'list_alerts',
  'update_tags',
  'update_notes',
  'stop_run',
];

describe('MCP endpoint', () => {
  const t = useTestApp();
  let base = '';
  const clients: Client[] = [];
  const connect = async (key: string) => {
    const c = await mcpClient(base, key);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it('lists the fourteen tools with input and output schemas', async () => {
    const client = await connect(t.key);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(NAMES);
    expect(TOOLS.map((x) => x.name)).toEqual(NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
    }
  });

  it('list_projects answers what GET /api/runs/projects answers', async () => {
    await createRun(t.app, t.key, { projectName: 'p1', runName: 'a' });
    const client = await connect(t.key);
    const answer = await toolOk(client, 'list_projects', {});
    const http = await getOk<{ projects: unknown[] }>(t.app, t.key, '/api/runs/projects');
    expect(answer).toEqual({ projects: http.projects, total: 1, hasMore: false });
  });

  it('answers 401 with the resource metadata URL, and invalid_token when a credential was given', async () => {
    const prm = `${t.deps.config.publicUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource/mcp`;
    const none = await call(t.app, 'POST', '/mcp', null, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'Missing API key', code: 'UNAUTHORIZED' });
    expect(none.headers['www-authenticate']).toBe(`Bearer resource_metadata="${prm}"`);
    const bad = await call(t.app, 'POST', '/mcp', 'sw_unknownunknownunknownunknown', { jsonrpc: '2.0' });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe(`Bearer error="invalid_token", resource_metadata="${prm}"`);
    const get = await call(t.app, 'GET', '/mcp', null);
    expect(get.headers['www-authenticate']).toBe(`Bearer resource_metadata="${prm}"`);
  });

  it('serves the protected-resource metadata at both well-known paths, without a key', async () => {
    const url = t.deps.config.publicUrl.replace(/\/+$/, '');
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await call(t.app, 'GET', path, null);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        resource: `${url}/mcp`,
        authorization_servers: [`${url}/oauth`],
        scopes_supported: ['runs:read', 'runs:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Stepwise MCP',
      });
    }
  });

  it('answers GET and DELETE with 405 and Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(t.app, method, '/mcp', t.key);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('is in the OpenAPI document with its metadata routes', async () => {
    const doc = await call(t.app, 'GET', '/api/openapi.json', null);
    const paths = doc.body.paths as Record<string, Record<string, { description?: string }>>;
    expect(paths['/mcp']?.post?.description).toContain('Model Context Protocol');
    expect(Object.keys(paths['/mcp'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(paths['/.well-known/oauth-protected-resource/mcp']?.get).toBeDefined();
  });
});
