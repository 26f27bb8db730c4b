import { Type } from '@sinclair/typebox';
import { iso } from '../../domain/iso.js';
import { listNotifications, markNotificationsRead } from '../../events/notifications.js';
import type { Deps } from '../../services/context.js';
import type { App } from '../app-types.js';
import { ctxOf } from '../hooks/auth-hook.js';
import { Success } from '../schemas/common.js';
import { NotificationList } from '../schemas/notifications.js';

/**
 * The dashboard's notifications (docs/api.md §15): GET /api/notifications (the organization's
 * alerts, failed and stale runs, newest first, with the user's unread count) and POST
 * /api/notifications/read (marks them read for the requesting user).
 */
export function registerNotificationRoutes(app: App, deps: Deps): void {
  app.get(
    '/api/notifications',
    {
      config: { role: 'viewer' },
      schema: {
        description:
          'The organization’s alerts, failed and stale runs, newest first (at most 50), and how many the user has not read.',
        response: { 200: NotificationList },
      },
    },
    async (request) => {
      const { unread, items } = await listNotifications(ctxOf(deps, request));
      return {
        unread,
        items: items.map(({ at, run, ...rest }) => ({
          ...rest,
          time: iso(at),
          run: run && {
            id: run.id,
            sqid: run.sqid,
            displayId: run.displayId,
            name: run.name,
            projectName: run.projectName,
          },
        })),
      };
    },
  );

  app.post(
    '/api/notifications/read',
    {
      config: { role: 'viewer' },
      schema: {
        description: 'Marks the notifications up to `upToId` (default: all of them) read for the requesting user.',
        body: Type.Object({
          upToId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
        }),
        response: { 200: Success },
      },
    },
    async (request) => {
      await markNotificationsRead(ctxOf(deps, request), request.body.upToId);
      return { success: true as const };
    },
  );
}
