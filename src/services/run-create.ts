import { deepMerge } from '../domain/deep-merge.js';
import { parseJsonField, parseObjectField } from '../domain/json-field.js';
import { uniqueTags } from '../domain/tags.js';
import type { Run } from '../domain/types.js';
import { BIDI_CONTROL_RULE, hasBidiControl } from '../domain/unicode-text.js';
import { badRequest, notFound } from '../errors.js';
import { actorOf, type Ctx, MAX_LINEAGE_DEPTH } from './context.js';

export interface CreateRunBody {
  runName: string;
  projectName: string;
  externalId?: string | null;
  tags?: string[] | null;
  loggerSettings?: string | null;
  systemMetadata?: string | null;
  config?: string | null;
  createdAt?: number | null;
  updatedAt?: number | null;
  forkRunId?: number | null;
  forkStep?: number | null;
  inheritConfig?: boolean | null;
  inheritTags?: boolean | null;
}

async function forkParent(ctx: Ctx, body: CreateRunBody, forkRunId: number, forkStep: number): Promise<Run> {
  const { metadata, series } = ctx.deps;
  const parent = await metadata.findRun(ctx.principal.orgId, forkRunId);
  if (!parent || parent.projectName !== body.projectName) {
    throw notFound(`fork parent run ${forkRunId} not found in project ${body.projectName}`);
  }
  const lineage = await metadata.getLineage(ctx.principal.orgId, parent.id, MAX_LINEAGE_DEPTH);
  const highest = await series.maxStep(lineage);
  if (highest !== null && forkStep > highest) {
    throw badRequest(`forkStep ${forkStep} is beyond the parent's highest step ${highest}`);
  }
  return parent;
}

/**
 * Throws BAD_REQUEST when a new project name starts or ends with white space (HTTP drops it
 * from the X-Project-Name header, so ingest could never name such a project exactly) or
 * holds a bidirectional control (it would show as another name).
 */
export function checkProjectName(projectName: string): void {
  if (projectName.trim() !== projectName) {
    throw badRequest(`projectName ${JSON.stringify(projectName)} must not start or end with white space`);
  }
  if (hasBidiControl(projectName)) throw badRequest(`projectName must not contain ${BIDI_CONTROL_RULE}`);
}

/**
 * Creates a run (project on demand, fork lineage checked, config/tags inherited), or
 * resumes the run with the same externalId. Throws BAD_REQUEST and NOT_FOUND.
 */
export async function createRun(ctx: Ctx, body: CreateRunBody): Promise<{ run: Run; resumed: boolean }> {
  const { metadata } = ctx.deps;
  const orgId = ctx.principal.orgId;
  checkProjectName(body.projectName);
  const config = parseObjectField('config', body.config);
  const loggerSettings = parseJsonField('loggerSettings', body.loggerSettings);
  const systemMetadata = parseJsonField('systemMetadata', body.systemMetadata);
  const externalId = body.externalId ?? null;
  const forkRunId = body.forkRunId ?? null;
  const forkStep = body.forkStep ?? null;
  if ((forkRunId === null) !== (forkStep === null)) {
    throw badRequest(
      forkRunId === null
        ? 'forkRunId is required when forkStep is given'
        : 'forkStep is required when forkRunId is given',
    );
  }
  const existing =
    externalId === null ? undefined : await metadata.findRunByExternalId(orgId, body.projectName, externalId);
  let tags = uniqueTags(body.tags ?? []);
  let newConfig: unknown = config ?? null;
  let fork: { parentId: number; forkStep: number } | null = null;
  if (!existing && forkRunId !== null && forkStep !== null) {
    const parent = await forkParent(ctx, body, forkRunId, forkStep);
    fork = { parentId: parent.id, forkStep };
    if (body.inheritConfig !== false && parent.config !== null) newConfig = deepMerge(parent.config, config ?? {});
    if (body.inheritTags === true) tags = uniqueTags([...parent.tags, ...tags]);
  }
  const now = Date.now();
  const createdAt = body.createdAt ?? now;
  return metadata.createRun({
    orgId,
    projectName: body.projectName,
    name: body.runName,
    externalId,
    tags,
    config: newConfig,
    configPatch: config,
    systemMetadata: systemMetadata ?? null,
    loggerSettings: loggerSettings ?? null,
    createdAt,
    updatedAt: body.updatedAt ?? createdAt,
    fork,
    actor: actorOf(ctx),
  });
}
