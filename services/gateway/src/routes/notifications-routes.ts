import { NOTIFICATION_LEVELS, NOTIFICATION_SCOPES, type notificationsV1 } from '@platform/contracts';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { asCaller } from './identity-route-schemas.js';
import { notificationPageSchema, toNotificationPage } from './notifications-presenters.js';
import { defineRoute } from './route-definition.js';
import { text } from './text-schemas.js';
import { pagingQuery, queryBool } from './validation.js';

const isoTime = z.iso.datetime({ offset: true });

const listQuery = z.object({
  ...pagingQuery,
  scope: z.enum(NOTIFICATION_SCOPES.names).optional(),
  type: text(100).optional(),
  level: z.enum(NOTIFICATION_LEVELS.names).optional(),
  search: text(255).optional(),
  unread_only: queryBool(false),
  created_from: isoTime.optional(),
  created_to: isoTime.optional(),
});
type ListQuery = z.infer<typeof listQuery>;

/**
 * Neither field present is the service's 400 / 1002 (`validation_error`), as the spec says, not
 * the edge's 422: the body shape is checked here, the "at least one" rule there.
 */
const markReadBody = z
  .object({
    notification_ids: z.array(z.uuid()).max(1000).optional(),
    mark_all: z.boolean().default(false),
  })
  .strict();
type MarkReadBody = z.infer<typeof markReadBody>;

/** Notifications, user side: any signed-in user, visibility decided by the service. */
const base = { tags: ['notifications'], auth: 'user' as const };

export const notificationsRoutes = [
  // Before any `/notifications/:id` route, so `unread-count` is not taken for an id.
  defineRoute<ServiceClients, undefined, undefined, undefined, notificationsV1.UnreadCount>({
    ...base,
    method: 'get',
    path: '/notifications/unread-count',
    summary: 'Unread, unexpired notifications visible to the caller',
    response: z.object({ total: z.number().int() }),
    invoke: (_input, context) => context.clients.notifications.call('getUnreadCount', {}, asCaller(context)),
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, notificationsV1.NotificationPage>({
    ...base,
    method: 'get',
    path: '/notifications',
    summary: 'Visible notifications (global, own, own teams), unexpired, newest first',
    query: listQuery,
    response: notificationPageSchema,
    invoke: ({ query }, context) =>
      context.clients.notifications.call(
        'listNotifications',
        {
          scope: query.scope ? NOTIFICATION_SCOPES.toProto(query.scope) : 0,
          type: query.type,
          level: query.level ? NOTIFICATION_LEVELS.toProto(query.level) : 0,
          search: query.search,
          unread_only: query.unread_only,
          created_from: query.created_from,
          created_to: query.created_to,
          page: query.page,
          page_size: query.page_size,
        },
        asCaller(context),
      ),
    present: toNotificationPage,
  }),
  defineRoute<ServiceClients, undefined, undefined, MarkReadBody, notificationsV1.MarkReadResponse>({
    ...base,
    method: 'post',
    path: '/notifications/read',
    summary: 'Mark notifications read (`notification_ids` or `mark_all`); `updated` counts new read records',
    body: markReadBody,
    errors: [ErrorCode.BAD_REQUEST],
    response: z.object({ updated: z.number().int() }),
    invoke: ({ body }, context) =>
      context.clients.notifications.call(
        'markRead',
        { notification_ids: body.notification_ids ?? [], mark_all: body.mark_all },
        asCaller(context),
      ),
    successMsgKey: 'notifications_marked_read',
  }),
];
