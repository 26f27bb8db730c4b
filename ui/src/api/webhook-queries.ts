/** Webhooks of the organization (docs/api.md §15): the list, one webhook's deliveries, and the writes. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhook, WebhookDeliveryList, WebhookList, WebhookTest } from '@server/api/schemas/webhooks';
import { apiDelete, apiGet, apiPost } from './client';

/** `GET /api/webhooks`: newest first. */
export const webhooksQuery = () =>
  queryOptions({
    queryKey: ['webhooks'],
    queryFn: ({ signal }) => apiGet<WebhookList>('/api/webhooks', undefined, signal),
  });

/** `GET /api/webhooks/{id}/deliveries`: newest first. */
export const webhookDeliveriesQuery = (webhookId: number) =>
  queryOptions({
    queryKey: ['webhook-deliveries', webhookId],
    queryFn: ({ signal }) => apiGet<WebhookDeliveryList>(`/api/webhooks/${webhookId}/deliveries`, undefined, signal),
  });

/** The organization's webhooks and the event types they may ask for. */
export const useWebhooks = () => useQuery(webhooksQuery());

/** A webhook's deliveries, asked again every 3 s while shown. */
export const useWebhookDeliveries = (webhookId: number) =>
  useQuery({ ...webhookDeliveriesQuery(webhookId), select: (answer) => answer.deliveries, refetchInterval: 3_000 });

/** What a webhook is created with. */
export interface WebhookFields {
  url: string;
  events: string[];
  format: 'standard' | 'slack';
  projectName?: string;
}

/** Creates, tests and deletes webhooks; each refreshes what it changed. */
export function useWebhookWrites() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: webhooksQuery().queryKey });
  return {
    create: useMutation({
      mutationFn: (fields: WebhookFields) => apiPost<CreatedWebhook>('/api/webhooks', fields),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: (webhookId: number) => apiPost<WebhookTest>(`/api/webhooks/${webhookId}/test`, {}),
      onSuccess: (_answer, webhookId) =>
        client.invalidateQueries({ queryKey: webhookDeliveriesQuery(webhookId).queryKey }),
    }),
    remove: useMutation({
      mutationFn: (webhookId: number) => apiDelete<null>(`/api/webhooks/${webhookId}`),
      onSuccess: refresh,
    }),
  };
}
