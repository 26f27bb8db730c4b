import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mcpResource, OAUTH_SCOPES, oauthIssuer, protectedResourceMetadataUrl } from '../../auth/oauth-urls.js';
import { AppError } from '../../errors.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ErrorAnswer } from '../schemas/common.js';
import { ProtectedResource } from '../schemas/mcp.js';

const MCP_DESCRIPTION =
  'The MCP endpoint for tool clients (docs/api.md §17): one JSON-RPC message of the Model Context Protocol ' +
  '(Streamable HTTP transport, stateless: no Mcp-Session-Id), answered as JSON. Accept must list ' +
  'application/json and text/event-stream. Tools: list_projects, search_runs, get_run, get_metric_names, ' +
  'get_metric_history, get_statistics, compare_runs, get_leaderboard, get_logs, list_files, list_alerts, ' +
  'update_tags, update_notes, stop_run. A 401 carries WWW-Authenticate with the resource metadata URL.';

/**
 * The SDK, zod and the tools load on the first MCP request, not at start (together about
 * 300 ms and 40 MB that a server nobody points an agent at never needs).
 */
let mcpModules:
  | Promise<
      [typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'), typeof import('../../mcp/mcp-server.js')]
    >
  | undefined;
const loadMcp = () =>
  (mcpModules ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../mcp/mcp-server.js'),
  ]));

/** The 401 challenge of RFC 6750 §3 naming the protected-resource metadata (RFC 9728 §5.1). */
function addBearerChallenge(publicUrl: string) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode === 401) {
      const given = request.headers.authorization !== undefined && request.headers.authorization.trim() !== '';
      const metadata = `resource_metadata="${protectedResourceMetadataUrl(publicUrl)}"`;
      void reply.header('www-authenticate', `Bearer ${given ? 'error="invalid_token", ' : ''}${metadata}`);
    }
    return payload;
  };
}

/**
 * POST /mcp (GET and DELETE answer 405: no session, no server-sent stream) and the
 * protected-resource metadata of /mcp (RFC 9728) at both well-known paths.
 */
export function registerMcpRoutes(app: App, deps: Deps): void {
  const { publicUrl } = deps.config;
  const onSend = addBearerChallenge(publicUrl);

  app.post(
    '/mcp',
    {
      config: { role: 'viewer', oauthResource: true },
      onSend,
      schema: {
        description: MCP_DESCRIPTION,
        body: Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true }),
        response: { 200: Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true }) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(deps, request);
      const [{ StreamableHTTPServerTransport }, { buildMcpServer }] = await loadMcp();
      const server = buildMcpServer(ctx, (err) => request.log.error({ err }, 'MCP tool failed'));
      // Stateless: a transport per request (the SDK refuses to reuse one); answers are JSON, not SSE.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The headers set so far (security headers, CORS) go out with the transport's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          reply.raw.end(JSON.stringify({ error: `internal error (request ${request.id})`, code: 'INTERNAL' }));
        } else reply.raw.destroy();
      }
    },
  );

  const notOffered = {
    config: { role: 'viewer' as const, oauthResource: true },
    onSend,
    schema: {
      description: 'Answers 405: /mcp is stateless, with no server-sent stream and no session to end (POST only).',
      response: { 405: ErrorAnswer },
    },
  };
  const refuse = async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', `${request.method} /mcp is not offered: this endpoint is stateless; POST`);
  };
  app.get('/mcp', notOffered, refuse);
  app.delete('/mcp', notOffered, refuse);

  const metadata = () => ({
    resource: mcpResource(publicUrl),
    authorization_servers: [oauthIssuer(publicUrl)],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Stepwise MCP',
  });
  const prm = {
    config: { public: true },
    schema: {
      description: 'The OAuth protected-resource metadata of /mcp (RFC 9728).',
      security: [],
      response: { 200: ProtectedResource },
    },
  };
  app.get('/.well-known/oauth-protected-resource/mcp', prm, metadata);
  app.get('/.well-known/oauth-protected-resource', prm, metadata);
}
