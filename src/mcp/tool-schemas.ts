/**
 * Input and output schemas of the MCP tools (docs/api.md §17), in zod as the SDK takes them.
 * Outputs are the HTTP routes' response schemas (src/api/schemas/*, one source) converted
 * from their JSON Schema, with the page fields every tool answer carries.
 */
import { type TObject, type TProperties, Type } from '@sinclair/typebox';
import { z } from 'zod';
import { Nullable } from '../api/schema-helpers.js';
import { badRequest } from '../errors.js';

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** `total` (null when the read cannot know it) and `hasMore`. */
const PAGE = {
  total: Nullable(Type.Integer({ description: 'how many items match in all (null when unknown)' })),
  hasMore: Type.Boolean({ description: 'true when items after these exist: ask again with a later offset' }),
};

/** The zod schema of a route's answer object with `extra` members and the page fields. */
export function outputOf(answer: TObject, extra: TProperties = {}): z.ZodType {
  const schema = Type.Object({ ...answer.properties, ...extra, ...PAGE });
  return z.fromJSONSchema(JSON.parse(JSON.stringify(schema)) as Parameters<typeof z.fromJSONSchema>[0]);
}

/** The zod schema of a plain answer object (a write's result). */
export function plainOutput(answer: TObject): z.ZodType {
  return z.fromJSONSchema(JSON.parse(JSON.stringify(answer)) as Parameters<typeof z.fromJSONSchema>[0]);
}

const stepArg = z.number().int().min(0).max(MAX_ID);

/** The arguments the tools share, by what they name: `arg.runId`, `arg.limit(max, fallback)`, ... */
export const arg = {
  runId: z.number().int().min(0).max(MAX_ID).describe('the run id (`id` in search_runs)'),
  project: z.string().min(1).max(256).describe('the project name'),
  logName: z.string().min(1).max(1024).describe('a metric name, e.g. "train/loss"'),
  offset: z.number().int().min(0).max(100_000).default(0).describe('items to skip (paging)'),
  limit: (max: number, fallback: number) =>
    z.number().int().min(1).max(max).default(fallback).describe(`most items to answer (1 to ${max})`),
  step: stepArg,
  around: z
    .object({ step: stepArg, window: stepArg.describe('steps on either side') })
    .optional()
    .describe('instead of stepMin/stepMax: the steps from step - window to step + window'),
};

/**
 * The step range of stepMin/stepMax or of `around` (step ± window, within 0..2^53-1); throws
 * BAD_REQUEST naming around when both are given.
 */
export function stepRange(a: { stepMin?: number; stepMax?: number; around?: { step: number; window: number } }): {
  stepMin?: number;
  stepMax?: number;
} {
  if (!a.around) return { stepMin: a.stepMin, stepMax: a.stepMax };
  if (a.stepMin !== undefined || a.stepMax !== undefined) {
    throw badRequest('around: give either around or stepMin/stepMax, not both');
  }
  const { step, window } = a.around;
  return { stepMin: Math.max(0, step - window), stepMax: Math.min(MAX_ID, step + window) };
}

/** The parameters that narrow runs as GET /api/runs/list's search, tags, status and filter do. */
export const narrowingArgs = {
  search: z.string().max(256).optional().describe('text found in run names'),
  tags: z.array(z.string().min(1).max(256)).max(100).optional().describe('runs with any of these tags'),
  status: z
    .array(z.string().min(1).max(32))
    .max(8)
    .optional()
    .describe('runs in any of these statuses: RUNNING, COMPLETED, FAILED, TERMINATED, CANCELLED'),
  filter: z
    .string()
    .max(20_000)
    .optional()
    .describe('the run filter language of GET /api/runs/list (docs/api.md §9), e.g. {"config.lr":{"$lt":0.01}}'),
};

/** The comma-separated text a list argument is in the HTTP query string. */
export const commaText = (items: readonly string[] | undefined): string | undefined => items?.join(',');
