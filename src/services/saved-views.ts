/**
 * Saved views of a project's workspace (docs/api.md §12): named JSON states shared with the
 * organization, one of them the project's default.
 */
import type { SavedViewRecord } from '../domain/types.js';
import { BIDI_CONTROL_RULE, hasBidiControl } from '../domain/unicode-text.js';
import { badRequest, notFound } from '../errors.js';
import type { Ctx } from './context.js';

/** The largest state a view may hold, as JSON text. */
export const MAX_VIEW_STATE_BYTES = 256 * 1024;
/** The most saved views one project holds. */
export const MAX_VIEWS_PER_PROJECT = 500;

export interface SavedViewInput {
  name?: string;
  state?: unknown;
  isDefault?: boolean;
}

function checkName(name: string): void {
  if (name.trim() !== name || name === '') {
    throw badRequest(`view name ${JSON.stringify(name)} must not be empty or start or end with white space`);
  }
  if (hasBidiControl(name)) throw badRequest(`view name must not contain ${BIDI_CONTROL_RULE}`);
}

/** The state as JSON text: an object of at most MAX_VIEW_STATE_BYTES. */
function stateText(state: unknown): string {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) {
    throw badRequest('state must be a JSON object');
  }
  const text = JSON.stringify(state);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_VIEW_STATE_BYTES) {
    throw badRequest(`state is ${bytes} bytes as JSON; a view holds at most ${MAX_VIEW_STATE_BYTES}`);
  }
  return text;
}

async function projectIdOf(ctx: Ctx, projectName: string): Promise<number> {
  const projectId = await ctx.deps.metadata.findProjectId(ctx.principal.orgId, projectName);
  if (projectId === undefined) throw notFound(`project ${JSON.stringify(projectName)} not found`);
  return projectId;
}

async function viewOf(ctx: Ctx, viewId: number): Promise<SavedViewRecord> {
  const view = await ctx.deps.metadata.findSavedView(ctx.principal.orgId, viewId);
  if (!view) throw notFound(`saved view ${viewId} not found`);
  return view;
}

/** The project's saved views without their state, default first, then by name. */
export async function listSavedViews(ctx: Ctx, projectName: string): Promise<SavedViewRecord[]> {
  return ctx.deps.metadata.listSavedViews(await projectIdOf(ctx, projectName));
}

/** One saved view with its state; NOT_FOUND for an unknown or another organization's view. */
export const getSavedView = viewOf;

/** Saves a new view in an existing project of the organization. */
export async function createSavedView(
  ctx: Ctx,
  input: { projectName: string; name: string; state: unknown; isDefault?: boolean },
): Promise<SavedViewRecord> {
  checkName(input.name);
  const state = stateText(input.state);
  const projectId = await projectIdOf(ctx, input.projectName);
  const { metadata } = ctx.deps;
  if ((await metadata.countSavedViews(projectId)) >= MAX_VIEWS_PER_PROJECT) {
    throw badRequest(
      `project ${JSON.stringify(input.projectName)} holds ${MAX_VIEWS_PER_PROJECT} saved views, the most it may`,
    );
  }
  const id = await metadata.createSavedView({
    projectId,
    name: input.name,
    state,
    isDefault: input.isDefault ?? false,
    createdBy: ctx.principal.userId,
    at: Date.now(),
  });
  return viewOf(ctx, id);
}

/** Changes the name, state or default mark of a saved view; the fields left out stay. */
export async function updateSavedView(ctx: Ctx, viewId: number, input: SavedViewInput): Promise<SavedViewRecord> {
  if (input.name === undefined && input.state === undefined && input.isDefault === undefined) {
    throw badRequest('give at least one of name, state and isDefault');
  }
  if (input.name !== undefined) checkName(input.name);
  const state = input.state === undefined ? undefined : stateText(input.state);
  const change = { name: input.name, state, isDefault: input.isDefault, at: Date.now() };
  if (!(await ctx.deps.metadata.updateSavedView(ctx.principal.orgId, viewId, change))) {
    throw notFound(`saved view ${viewId} not found`);
  }
  return viewOf(ctx, viewId);
}

/** Deletes a saved view; NOT_FOUND when there is none. */
export async function deleteSavedView(ctx: Ctx, viewId: number): Promise<void> {
  if (!(await ctx.deps.metadata.deleteSavedView(ctx.principal.orgId, viewId))) {
    throw notFound(`saved view ${viewId} not found`);
  }
}
