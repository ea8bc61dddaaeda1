import { CHANNEL_TEST_OUTCOMES, NOTIFICATION_CHANNELS } from '@platform/contracts';
import type * as channelTestsV1 from '@platform/contracts/platform/notifications/v1/channel_tests';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { requestOrigin } from './identity-route-schemas.js';
import { channelNameOf } from './notifications-presenters.js';
import { nameOf } from './closed-set-names.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery } from './validation.js';

/**
 * `POST /admin/site-settings/test-<channel>`: one test message through a channel, the saved
 * settings overlaid by the body (never saved). Each body accepts only that channel's settings.
 */
const url = z.url().max(2048);
const text = z.string().max(255);
const mode = z.enum(['webhook', 'app']);

const bodies = {
  email: z
    .object({
      to: z.email().max(254).optional(),
      smtp_host: text.optional(),
      smtp_port: z.number().int().min(1).max(65_535).optional(),
      smtp_encryption: z.enum(['none', 'ssl', 'tls']).optional(),
      smtp_username: text.optional(),
      smtp_password: text.optional(),
      email_from_name: text.optional(),
      email_from_address: z.email().max(254).optional(),
    })
    .strict(),
  dingtalk: z
    .object({
      dingtalk_notification_type: mode.optional(),
      dingtalk_webhook_url: url.optional(),
      dingtalk_webhook_secret: text.optional(),
      dingtalk_app_key: text.optional(),
      dingtalk_app_secret: text.optional(),
      dingtalk_agent_id: text.optional(),
    })
    .strict(),
  wechat: z
    .object({
      wechat_notification_type: mode.optional(),
      wechat_webhook_url: url.optional(),
      wechat_corp_id: text.optional(),
      wechat_agent_id: text.optional(),
      wechat_secret: text.optional(),
    })
    .strict(),
  feishu: z
    .object({
      feishu_notification_type: mode.optional(),
      feishu_webhook_url: url.optional(),
      feishu_webhook_secret: text.optional(),
      feishu_app_id: text.optional(),
      feishu_app_secret: text.optional(),
    })
    .strict(),
  slack: z.object({ slack_webhook_url: url.optional() }).strict(),
  webhook: z
    .object({
      webhook_url: url.optional(),
      webhook_method: z.enum(['POST', 'GET']).optional(),
      webhook_headers: z
        .record(
          z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/),
          z
            .string()
            .max(4096)
            .regex(/^[\t\x20-\x7e]*$/),
        )
        .refine((headers) => Object.keys(headers).length <= 50, 'at most 50 headers')
        .optional(),
      webhook_body_template: z.string().max(65_536).optional(),
      webhook_secret: text.optional(),
    })
    .strict(),
};

const PATHS = {
  email: 'email',
  dingtalk: 'dingtalk',
  wechat: 'wechat',
  feishu: 'feishu',
  slack: 'slack',
  webhook: 'webhook',
};
const result = z.object({ success: z.boolean(), message: z.string() });

function channelTestRoute<C extends keyof typeof bodies>(channel: C) {
  type Body = z.infer<(typeof bodies)[C]>;
  return defineRoute<ServiceClients, undefined, undefined, Body | undefined, z.infer<typeof result>>({
    method: 'post',
    path: `/admin/site-settings/test-${PATHS[channel]}`,
    summary: `Send a test message through the ${channel} channel (body overrides are never saved)`,
    tags: ['admin-settings'],
    auth: 'user',
    permission: 'admin:settings:update',
    body: bodies[channel].optional() as z.ZodType<Body | undefined>,
    response: result,
    invoke: ({ body }, context) => {
      const { clients, principal } = context;
      const { to, ...overrides } = { ...(body ?? {}) } as Record<string, unknown> & { to?: string };
      return clients.channelTests.call(
        'testChannel',
        {
          channel: NOTIFICATION_CHANNELS.toProto(channel),
          overrides,
          to: typeof to === 'string' ? to : undefined,
          origin: requestOrigin(context),
        },
        { principal },
      );
    },
    present: (answer) => ({ success: answer.success, message: answer.message }),
  });
}

const auditQuery = z.object({ ...pagingQuery });
type AuditQuery = z.infer<typeof auditQuery>;
const auditEntry = z.object({
  id: z.uuid(),
  channel: z.enum(NOTIFICATION_CHANNELS.names),
  actor_user_id: z.uuid(),
  actor_username: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  destination: z.string().describe('`smtp-host:port` or the origin; never a path or query'),
  overridden: z.array(z.string()).describe('Names of the overridden settings (never values)'),
  dropped_secrets: z.array(z.string()).describe('Saved secrets left out: the destination was overridden'),
  outcome: z.enum(CHANNEL_TEST_OUTCOMES.names),
  error_key: z.string().nullable(),
  at: z.string(),
});

/** Who tested which channel towards which host, and how it ended (global admins). */
const channelTestAuditRoute = defineRoute<
  ServiceClients,
  undefined,
  AuditQuery,
  undefined,
  channelTestsV1.ChannelTestAuditPage
>({
  method: 'get',
  path: '/admin/site-settings/channel-test-audit',
  summary: 'The channel-test audit, newest first: actor, channel, destination host, outcome',
  tags: ['admin-settings'],
  auth: 'user',
  permission: 'admin:settings:read',
  query: auditQuery,
  errors: [ErrorCode.INSUFFICIENT_PRIVILEGES],
  response: z.object({
    items: z.array(auditEntry),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  }),
  invoke: ({ query }, { clients, principal }) =>
    clients.channelTests.call(
      'listChannelTestAudit',
      { page: query.page, page_size: query.page_size },
      { principal },
    ),
  present: (page) => ({
    ...page,
    items: page.items.map((entry) => ({
      ...entry,
      channel: channelNameOf(entry.channel),
      outcome: nameOf(CHANNEL_TEST_OUTCOMES)(entry.outcome),
      ip: entry.ip || null,
      user_agent: entry.user_agent || null,
      request_id: entry.request_id || null,
      error_key: entry.error_key || null,
    })),
  }),
});

export const notificationsChannelTestRoutes = [
  channelTestAuditRoute,
  channelTestRoute('email'),
  channelTestRoute('dingtalk'),
  channelTestRoute('wechat'),
  channelTestRoute('feishu'),
  channelTestRoute('slack'),
  channelTestRoute('webhook'),
];
