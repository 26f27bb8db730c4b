/** The bell's notifications (`GET /api/notifications`) and marking them read. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '@server/api/schemas/notifications';
import { apiGet, apiPost } from './client';

/** `GET /api/notifications`: the organization's alerts, failed and stale runs, newest first, and the unread count. */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: ['notifications'],
    queryFn: ({ signal }) => apiGet<NotificationList>('/api/notifications', undefined, signal),
  });

/** The notifications, asked again every 10 s while the tab is visible. */
export const useNotifications = () =>
  useQuery({ ...notificationsQuery(), refetchInterval: 10_000, refetchIntervalInBackground: false });

/** `POST /api/notifications/read`: marks everything up to `upToId` read for this user, then refreshes the bell. */
export function useMarkNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (upToId: number) => apiPost<{ success: boolean }>('/api/notifications/read', { upToId }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationsQuery().queryKey }),
  });
}
