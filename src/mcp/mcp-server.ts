/**
 * The MCP server of one request (docs/api.md §17): the SDK's low-level Server answering
 * tools/list and tools/call from the tool table. The tool table's JSON schemas are built once;
 * a Server per request costs only its handlers. Every tool call answers a result, an error
 * as `{error, code}` text with isError, never a protocol error for a tool's own failure.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import {
  compareRunsTool,
  getLeaderboardTool,
  getMetricHistoryTool,
  getMetricNamesTool,
  getStatisticsTool,
} from './metric-tools.js';
import {
  getLogsTool,
  getRunTool,
  listAlertsTool,
  listFilesTool,
  listProjectsTool,
  searchRunsTool,
} from './run-tools.js';
import { answerResult, checkAccess, errorResult, thrownResult } from './tool-kit.js';
import type { ToolSpec } from './tool-spec.js';
import { stopRunTool, updateNotesTool, updateTagsTool } from './write-tools.js';

/** The tools, in the order tools/list answers them. */
export const TOOLS: readonly ToolSpec[] = [
  listProjectsTool,
  searchRunsTool,
  getRunTool,
  getMetricNamesTool,
  getMetricHistoryTool,
  getStatisticsTool,
  compareRunsTool,
  getLeaderboardTool,
  getLogsTool,
  listFilesTool,
  listAlertsTool,
  updateTagsTool,
  updateNotesTool,
  stopRunTool,
];

type JsonObjectSchema = Tool['inputSchema'];

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonObjectSchema =>
  z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonObjectSchema;

const BY_NAME = new Map(
  TOOLS.map((t) => {
    const input = z.object(t.input);
    const listed: Tool = {
      name: t.name,
      description: t.description,
      inputSchema: jsonSchemaOf(input, 'input'),
      outputSchema: jsonSchemaOf(t.output, 'output'),
      annotations: { readOnlyHint: t.access === 'read', destructiveHint: false, openWorldHint: false },
    };
    return [t.name, { spec: t, input, listed }];
  }),
);
const LISTED = [...BY_NAME.values()].map((t) => t.listed);

/** What the first problem of bad arguments says, naming the argument. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'arguments';
  return `${where}: ${issue?.message ?? 'is invalid'}`;
}

/** Runs one tool call for the principal of ctx; never throws. */
export async function callTool(
  ctx: Ctx,
  name: string,
  args: unknown,
  onInternal: (err: unknown) => void,
): Promise<CallToolResult> {
  const entry = BY_NAME.get(name);
  if (!entry) return errorResult(`no tool named ${JSON.stringify(name)}; tools/list names them`, 'NOT_FOUND');
  const parsed = entry.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(describeIssue(parsed.error), 'VALIDATION_FAILED');
  try {
    checkAccess(ctx, entry.spec.access, name);
    return answerResult(await entry.spec.run(ctx, parsed.data, ctx.deps.config.mcpMaxBytes));
  } catch (err) {
    return thrownResult(err, onInternal);
  }
}

/** The version this server reports to clients. */
const SERVER_INFO = { name: 'stepwise', version: '0.1.0' };

/** A Server for one request of the principal of ctx; internal errors go to onInternal (the log). */
export function buildMcpServer(ctx: Ctx, onInternal: (err: unknown) => void): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Stepwise experiment tracking: list_projects, then search_runs to find runs; get_metric_history, ' +
      'get_statistics, compare_runs and get_leaderboard read metrics. Answers are bounded: page with offset ' +
      'while hasMore is true.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LISTED }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(ctx, request.params.name, request.params.arguments, onInternal),
  );
  return server;
}
