import { assertJsonValue, parseObjectField } from '../domain/json-field.js';
import { logGroupOf } from '../domain/log-group.js';
import { uniqueTags } from '../domain/tags.js';
import type { LogNameType, ModelGraph } from '../domain/types.js';
import { badRequest, notFound } from '../errors.js';
import type { Ctx } from './context.js';

/** Replaces the run's notes; null or "" clears. Throws NOT_FOUND. */
export function updateNotes(ctx: Ctx, runId: number, notes: string | null): Promise<void> {
  return ctx.deps.metadata.updateNotes(ctx.principal.orgId, runId, notes === '' ? null : notes, Date.now());
}

/** Deep-merges a config object (or its JSON encoding) into the run's config. Throws BAD_REQUEST, NOT_FOUND. */
export async function updateConfig(ctx: Ctx, runId: number, config: string | Record<string, unknown>): Promise<void> {
  if (typeof config !== 'string') assertJsonValue('config', config);
  const patch = typeof config === 'string' ? parseObjectField('config', config) : config;
  if (!patch) throw badRequest('config must encode a JSON object');
  await ctx.deps.metadata.updateConfig(ctx.principal.orgId, runId, patch, Date.now());
}

/** Replaces all tags (repeats dropped). Throws NOT_FOUND. */
export function updateTags(ctx: Ctx, runId: number, tags: string[]): Promise<void> {
  return ctx.deps.metadata.updateTags(ctx.principal.orgId, runId, uniqueTags(tags), Date.now());
}

/** Registers log names of one type; names already present keep their type. Throws NOT_FOUND, and BAD_REQUEST past config.runMaxLogNames. */
export function addLogNames(ctx: Ctx, runId: number, names: readonly string[], logType: LogNameType): Promise<void> {
  const entries = [...new Set(names)].map((logName) => ({ logName, logType, logGroup: logGroupOf(logName) }));
  return ctx.deps.metadata.addLogNames(ctx.principal.orgId, runId, entries, Date.now(), ctx.deps.config.runMaxLogNames);
}

/** The run's model graph. Throws NOT_FOUND when the run is not the caller's or has no graph. */
export async function getModelGraph(ctx: Ctx, runId: number): Promise<ModelGraph> {
  const graph = await ctx.deps.metadata.findModelGraph(ctx.principal.orgId, runId);
  if (!graph) throw notFound(`run ${runId} has no model graph`);
  return graph;
}

/** Replaces the run's model graph. Throws NOT_FOUND. */
export function setModelGraph(ctx: Ctx, runId: number, graph: ModelGraph): Promise<void> {
  assertJsonValue('graph', graph);
  return ctx.deps.metadata.setModelGraph(ctx.principal.orgId, runId, graph, Date.now());
}
