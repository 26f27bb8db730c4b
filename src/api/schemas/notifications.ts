import { Type, type Static } from '@sinclair/typebox';

/** One notification of the dashboard's bell. */
export const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: '`alert` (a client’s or a rule’s), `failed` or `stale`.' }),
  title: Type.String(),
  text: Type.Union([Type.String(), Type.Null()]),
  level: Type.Union([Type.String(), Type.Null()]),
  time: Type.String(),
  unread: Type.Boolean(),
  run: Type.Union([
    Type.Object({
      id: Type.Integer(),
      sqid: Type.String(),
      displayId: Type.String(),
      name: Type.String(),
      projectName: Type.String(),
    }),
    Type.Null(),
  ]),
  step: Type.Union([Type.Number(), Type.Null()], { description: 'The step of a metric alert.' }),
  path: Type.Union([Type.String(), Type.Null()], { description: 'The run’s dashboard page (at the step).' }),
});
export type Notification = Static<typeof Notification>;

/** The answer of GET /api/notifications: newest first, at most 50. */
export const NotificationList = Type.Object({
  unread: Type.Integer({ description: 'Notifications the user has not marked read, counted up to 100.' }),
  items: Type.Array(Notification),
});
export type NotificationList = Static<typeof NotificationList>;
