/** Webhook subscriptions as the API manages them (docs/api.md §15). */
import { randomBytes } from 'node:crypto';
import type { DeliveryRecord, EventType, WebhookFormat, WebhookRecord } from '../domain/events.js';
import { conflict, notFound } from '../errors.js';
import type { Ctx } from '../services/context.js';
import { checkTarget } from './address-guard.js';

/** Most subscriptions an organization may have. */
export const MAX_WEBHOOKS = 100;
/** Most deliveries GET /api/webhooks/{id}/deliveries answers. */
export const MAX_DELIVERIES_LISTED = 200;

/** What POST /api/webhooks takes. */
export interface WebhookInput {
  url: string;
  events: EventType[];
  projectName?: string | undefined;
  format?: WebhookFormat | undefined;
}

/**
 * Creates a subscription with a new signing secret (`whsec_` + 32 random bytes, base64),
 * answered only here. Throws BAD_REQUEST for a target that is not public (unless the server
 * allows private ones) or does not resolve, NOT_FOUND for an unknown project, CONFLICT past
 * MAX_WEBHOOKS.
 */
export async function createWebhook(
  ctx: Ctx,
  input: WebhookInput,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const { orgId, userId } = ctx.principal;
  const { events, config, metadata } = ctx.deps;
  await checkTarget(input.url, config.webhookAllowPrivate);
  let projectId: number | null = null;
  if (input.projectName !== undefined) {
    const project = await metadata.findProject(orgId, input.projectName);
    if (!project) throw notFound(`project ${JSON.stringify(input.projectName)} not found`);
    projectId = project.id;
  }
  if ((await events.listWebhooks(orgId, MAX_WEBHOOKS)).length >= MAX_WEBHOOKS) {
    throw conflict(`an organization has at most ${MAX_WEBHOOKS} webhooks; delete one first`);
  }
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const id = await events.createWebhook({
    orgId,
    projectId,
    url: input.url,
    events: [...new Set(input.events)],
    format: input.format ?? 'standard',
    secret,
    createdBy: userId,
    at: Date.now(),
  });
  return { webhook: (await events.findWebhook(orgId, id))!, secret };
}

/** The organization's subscriptions, newest first (at most MAX_WEBHOOKS). */
export function listWebhooks(ctx: Ctx): Promise<WebhookRecord[]> {
  return ctx.deps.events.listWebhooks(ctx.principal.orgId, MAX_WEBHOOKS);
}

/** Deletes a subscription; throws NOT_FOUND. */
export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  if (!(await ctx.deps.events.deleteWebhook(ctx.principal.orgId, id))) throw notFound(`webhook ${id} not found`);
}

/** Queues a `webhook.test` delivery to the subscription; returns its id. Throws NOT_FOUND. */
export async function testWebhook(ctx: Ctx, id: number): Promise<number> {
  const delivery = await ctx.deps.events.queueTestDelivery(ctx.principal.orgId, id, Date.now());
  if (delivery === undefined) throw notFound(`webhook ${id} not found`);
  return delivery;
}

/** The subscription's deliveries, newest first (at most MAX_DELIVERIES_LISTED); throws NOT_FOUND. */
export async function listDeliveries(ctx: Ctx, id: number): Promise<DeliveryRecord[]> {
  const { orgId } = ctx.principal;
  if (!(await ctx.deps.events.findWebhook(orgId, id))) throw notFound(`webhook ${id} not found`);
  return ctx.deps.events.listDeliveries(orgId, id, MAX_DELIVERIES_LISTED);
}
