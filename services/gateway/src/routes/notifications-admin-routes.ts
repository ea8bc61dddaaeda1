import {
  isSafeLinkUrl,
  LINK_URL_MAX_LENGTH,
  LINK_URL_RULE,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  NOTIFICATION_SCOPES,
  NOTIFICATION_SOURCES,
  SAFE_LINK_URL_PATTERN,
  type notificationsV1,
} from '@platform/contracts';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { asCaller, requestOrigin } from './identity-route-schemas.js';
import {
  notificationPageSchema,
  notificationSchema,
  toAutoConfig,
  toNotification,
  toNotificationPage,
} from './notifications-presenters.js';
import { defineRoute } from './route-definition.js';
import { text } from './text-schemas.js';
import { pagingQuery, queryBool, repeatable } from './validation.js';

const CHANNELS = NOTIFICATION_CHANNELS.names;
const scope = z.enum(NOTIFICATION_SCOPES.names);
const level = z.enum(NOTIFICATION_LEVELS.names);
const channel = z.enum(CHANNELS);
/** The link rule runs as a function; the document states it as a pattern (same rule, contracts). */
const linkUrl = z
  .string()
  .max(LINK_URL_MAX_LENGTH, { abort: true })
  .refine((value) => value === '' || isSafeLinkUrl(value), LINK_URL_RULE)
  .meta({ pattern: SAFE_LINK_URL_PATTERN });

const listQuery = z.object({
  ...pagingQuery,
  scope: repeatable(scope).optional(),
  team_id: z.uuid().optional(),
  user_id: z.uuid().optional(),
  type: text(100).optional(),
  level: repeatable(level).optional(),
  search: text(255).optional(),
  include_expired: queryBool(false),
});
type ListQuery = z.infer<typeof listQuery>;

const createBody = z
  .object({
    scope,
    team_id: z.uuid().optional(),
    user_id: z.uuid().optional(),
    user_ids: z.array(z.uuid()).min(1).max(1000).optional(),
    type: text(100, 1),
    source: z.enum(NOTIFICATION_SOURCES.names).default('system'),
    title: text(255, 1),
    content: text(65_536),
    level: level.default('medium'),
    data: z.record(z.string().max(256), z.unknown()).nullable().optional(),
    link_url: linkUrl.nullable().optional(),
    expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
    notify_channels: z
      .array(channel)
      .max(CHANNELS.length * 2)
      .default([])
      .describe('each listed channel must be enabled and configured in the site settings'),
  })
  .strict();
type CreateBody = z.infer<typeof createBody>;

const deleteParams = z.object({ notification_id: z.uuid() });
type DeleteParams = z.infer<typeof deleteParams>;

const autoConfigSchema = z.object({
  channels: z.array(channel),
  enabled_types: z.array(z.string()),
});
/** Types are checked by the service (an unknown one is `invalid_notification_type`, not 422). */
const autoConfigBody = z
  .object({
    channels: z
      .array(channel)
      .max(CHANNELS.length * 2)
      .optional(),
    enabled_types: z.array(z.string().max(100)).max(100).optional(),
  })
  .strict();
type AutoConfigBody = z.infer<typeof autoConfigBody>;

const sendEmailBody = z
  .object({
    user_ids: z.array(z.uuid()).min(1).max(1000).optional(),
    all_users: z.boolean().optional(),
    subject: z.string().min(1).max(255),
    content: z.string().min(1).max(100_000),
  })
  .strict()
  .refine((body) => (body.user_ids !== undefined) !== (body.all_users === true), {
    message: 'give either user_ids or all_users: true',
    path: ['user_ids'],
  });
type SendEmailBody = z.infer<typeof sendEmailBody>;

const base = { tags: ['admin-notifications'], auth: 'user' as const };

export const notificationsAdminRoutes = [
  defineRoute<ServiceClients, undefined, ListQuery, undefined, notificationsV1.NotificationPage>({
    ...base,
    method: 'get',
    path: '/admin/notifications',
    summary: 'Every notification (global admins), or one administered team’s (team_id)',
    query: listQuery,
    errors: [
      ErrorCode.INSUFFICIENT_PRIVILEGES,
      ErrorCode.BAD_REQUEST,
      ErrorCode.TEAM_ADMIN_REQUIRED,
      ErrorCode.TEAM_NOT_FOUND,
    ],
    response: notificationPageSchema,
    invoke: ({ query }, context) =>
      context.clients.notifications.call(
        'adminListNotifications',
        {
          scope: (query.scope ?? []).map(NOTIFICATION_SCOPES.toProto),
          team_id: query.team_id,
          user_id: query.user_id,
          type: query.type,
          level: (query.level ?? []).map(NOTIFICATION_LEVELS.toProto),
          search: query.search,
          include_expired: query.include_expired,
          page: query.page,
          page_size: query.page_size,
        },
        asCaller(context),
      ),
    present: toNotificationPage,
  }),
  defineRoute<ServiceClients, undefined, undefined, CreateBody, notificationsV1.CreatedNotifications>({
    ...base,
    method: 'post',
    path: '/admin/notifications',
    summary: 'Create a notification (a `user_ids` batch: one per user, the first returned)',
    permission: 'admin:notification:create',
    body: createBody,
    errors: [
      ErrorCode.INSUFFICIENT_PRIVILEGES,
      ErrorCode.BAD_REQUEST,
      ErrorCode.TEAM_ADMIN_REQUIRED,
      ErrorCode.USER_NOT_FOUND,
      ErrorCode.TEAM_NOT_FOUND,
    ],
    response: notificationSchema,
    invoke: ({ body }, context) =>
      context.clients.notifications.call(
        'createNotification',
        {
          scope: NOTIFICATION_SCOPES.toProto(body.scope),
          team_id: body.team_id,
          user_id: body.user_id,
          user_ids: body.user_ids ?? [],
          type: body.type,
          source: NOTIFICATION_SOURCES.toProto(body.source),
          title: body.title,
          content: body.content,
          level: NOTIFICATION_LEVELS.toProto(body.level),
          data: body.data ?? undefined,
          link_url: body.link_url ?? undefined,
          expires_at: body.expires_at ?? undefined,
          notify_channels: body.notify_channels.map(NOTIFICATION_CHANNELS.toProto),
          origin: requestOrigin(context),
        },
        asCaller(context),
      ),
    present: (created) => toNotification(created.notification!),
    successMessage: (created) =>
      created.count > 1
        ? { msgKey: 'notifications_created', params: { count: created.count } }
        : { msgKey: 'notification_created' },
  }),
  defineRoute<ServiceClients, DeleteParams, undefined, undefined, notificationsV1.DeletedNotification>({
    ...base,
    method: 'delete',
    path: '/admin/notifications/:notification_id',
    summary: 'Delete a notification (audited first)',
    permission: 'admin:notification:delete',
    params: deleteParams,
    errors: [ErrorCode.INSUFFICIENT_PRIVILEGES, ErrorCode.TEAM_ADMIN_REQUIRED, ErrorCode.NOT_FOUND],
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, context) =>
      context.clients.notifications.call(
        'deleteNotification',
        { id: params.notification_id, origin: requestOrigin(context) },
        asCaller(context),
      ),
    successMsgKey: 'deleted',
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, notificationsV1.AutoNotificationConfig>({
    ...base,
    method: 'get',
    path: '/admin/site-settings/auto-notifications',
    summary: 'Automatic-notification configuration (channels, enabled types)',
    permission: 'admin:settings:read',
    response: autoConfigSchema,
    invoke: (_input, context) =>
      context.clients.notifications.call('getAutoNotificationConfig', {}, asCaller(context)),
    present: toAutoConfig,
  }),
  defineRoute<ServiceClients, undefined, undefined, AutoConfigBody, notificationsV1.AutoNotificationConfig>({
    ...base,
    method: 'put',
    path: '/admin/site-settings/auto-notifications',
    summary: 'Set `channels` and/or `enabled_types`',
    permission: 'admin:settings:update',
    body: autoConfigBody,
    errors: [{ code: ErrorCode.VALIDATION_ERROR, status: 400 }],
    response: autoConfigSchema,
    invoke: ({ body }, context) =>
      context.clients.notifications.call(
        'updateAutoNotificationConfig',
        {
          channels: body.channels ? { values: body.channels.map(NOTIFICATION_CHANNELS.toProto) } : undefined,
          enabled_types: body.enabled_types ? { values: body.enabled_types } : undefined,
          origin: requestOrigin(context),
        },
        asCaller(context),
      ),
    present: toAutoConfig,
    successMsgKey: 'updated',
  }),
  defineRoute<ServiceClients, undefined, undefined, SendEmailBody, notificationsV1.BulkEmailResult>({
    ...base,
    method: 'post',
    path: '/admin/users/send-email',
    summary: 'Bulk e-mail through the default queue (100 per hour per sender; 5 per recipient per day)',
    permission: 'admin:notification:create',
    body: sendEmailBody,
    errors: [ErrorCode.RATE_LIMITED, ErrorCode.USER_NOT_FOUND],
    response: z.object({ sent_count: z.number().int(), skipped_count: z.number().int() }),
    invoke: ({ body }, context) =>
      context.clients.notifications.call(
        'sendBulkEmail',
        {
          user_ids: body.user_ids ?? [],
          all_users: body.all_users === true,
          subject: body.subject,
          content: body.content,
          origin: requestOrigin(context),
        },
        asCaller(context),
      ),
  }),
];
