import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/events.js';
import type { Deps } from '../../services/context.js';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook } from '../../events/webhooks.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { ProjectName, StringEnum } from '../schema-helpers.js';
import { CreatedWebhook, EventTypeName, WebhookDeliveryList, WebhookList, WebhookTest } from '../schemas/webhooks.js';
import { deliveryView, webhookView } from '../views/webhook-view.js';

const WebhookParams = Type.Object({ webhookId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/**
 * Webhook subscriptions of the organization (docs/api.md §15): POST and GET /api/webhooks,
 * DELETE /api/webhooks/{webhookId}, POST …/test, GET …/deliveries. Another organization's
 * subscription is a 404.
 */
export function registerWebhookRoutes(app: App, deps: Deps): void {
  app.post(
    '/api/webhooks',
    {
      config: { role: 'admin' },
      schema: {
        description:
          'Subscribes a URL to events of the organization (or of one project). Deliveries are signed the ' +
          'Standard Webhooks way with `secret`, answered only here. A URL whose host is or resolves to a ' +
          'loopback, private, link-local or metadata address is a 400 unless the server allows it.',
        body: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2000 }),
          events: Type.Array(EventTypeName, { minItems: 1, maxItems: 20 }),
          projectName: Type.Optional(ProjectName),
          format: Type.Optional(StringEnum(['standard', 'slack'] as const)),
        }),
        response: { 200: CreatedWebhook },
      },
    },
    async (request) => {
      const { webhook, secret } = await createWebhook(ctxOf(deps, request), request.body);
      return { ...webhookView(webhook), secret };
    },
  );

  app.get(
    '/api/webhooks',
    {
      config: { role: 'admin' },
      schema: {
        description: 'The organization’s webhooks, newest first (at most 100).',
        response: { 200: WebhookList },
      },
    },
    async (request) => ({
      webhooks: (await listWebhooks(ctxOf(deps, request))).map(webhookView),
      eventTypes: [...EVENT_TYPES],
    }),
  );

  app.delete(
    '/api/webhooks/:webhookId',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Deletes a webhook and its deliveries.',
        params: WebhookParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteWebhook(ctxOf(deps, request), request.params.webhookId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/webhooks/:webhookId/test',
    {
      config: { role: 'admin' },
      schema: {
        description: 'Queues a `webhook.test` event to this webhook only (a disabled one too).',
        params: WebhookParams,
        response: { 200: WebhookTest },
      },
    },
    async (request) => ({ deliveryId: await testWebhook(ctxOf(deps, request), request.params.webhookId) }),
  );

  app.get(
    '/api/webhooks/:webhookId/deliveries',
    {
      config: { role: 'admin' },
      schema: {
        description: 'The webhook’s deliveries, newest first (at most 200): status, attempts, last answer.',
        params: WebhookParams,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (request) => ({
      deliveries: (await listDeliveries(ctxOf(deps, request), request.params.webhookId)).map(deliveryView),
    }),
  );
}
