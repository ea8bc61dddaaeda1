// Channel settings' defaults are shared with notifications (one table, @platform/contracts).
import {
  CHANNEL_SETTING_DEFAULTS as CHANNEL,
  PASSWORD_BOUNDS,
  type ChannelSettings,
} from '@platform/contracts';
import { z } from 'zod';
import {
  allowlistSchema,
  OFFICIAL_MODEL_ORIGINS,
  WORKFLOW_HTTP_ALLOWLIST_MAX,
} from './model-endpoint-allowlist.js';

/**
 * Every site setting: its spec name, type, default and whether it is a secret (encrypted at rest,
 * returned as `null` plus `<name>_set`). The single definition the settings store, the admin API
 * and the typed reader all use.
 */
const channelType = z.enum(['webhook', 'app']);
/**
 * Every free-text setting is bounded and refuses NUL (Postgres jsonb cannot store it): the gateway
 * already refuses NUL at the edge, this keeps the store safe for callers that skip the edge.
 */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL');
const url = z.url().max(2048);
const shortText = text(255);
/** RFC 5321: 254 characters for an address (the 256-octet forward path less its brackets). */
const emailAddress = z.email().max(254);
/** Header names are RFC 9110 tokens; values are visible ASCII and spaces (no CR/LF injection). */
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, 'must be an HTTP header name');
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[\t\x20-\x7e]*$/, 'must be visible ASCII (no line breaks)');
export const MAX_WEBHOOK_HEADERS = 50;
const optionalUrl = z.union([url, z.literal('')]);

/**
 * What each chat robot (DingTalk, WeCom, Feishu) has: on/off, webhook or app mode, and the robot
 * URL (a secret: it embeds its token). Defaults from the shared table.
 */
function robotChannel<P extends 'dingtalk' | 'wechat' | 'feishu'>(prefix: P) {
  const fallback = (name: string) => CHANNEL[`${prefix}_${name}` as keyof ChannelSettings];
  const entries = {
    enabled: { schema: z.boolean(), default: fallback('enabled') as boolean },
    notification_type: { schema: channelType, default: fallback('notification_type') as 'webhook' | 'app' },
    webhook_url: { schema: optionalUrl, default: fallback('webhook_url') as string, secret: true },
  };
  return Object.fromEntries(Object.entries(entries).map(([name, entry]) => [`${prefix}_${name}`, entry])) as {
    [K in keyof typeof entries as `${P}_${K}`]: (typeof entries)[K];
  };
}

export const SETTING_DEFINITIONS = {
  // ---- accounts and sessions
  allow_registration: { schema: z.boolean(), default: true },
  session_timeout_days: { schema: z.number().int().min(1).max(365), default: 30 },
  single_session: { schema: z.boolean(), default: false },
  enable_captcha: { schema: z.boolean(), default: false },
  sso_enabled: { schema: z.boolean(), default: false },
  sso_allow_password_login: { schema: z.boolean(), default: true },
  max_login_attempts: { schema: z.number().int().min(1).max(100), default: 5 },
  lockout_duration_minutes: { schema: z.number().int().min(1).max(10_080), default: 15 },
  require_totp: { schema: z.boolean(), default: false },
  email_verification: { schema: z.boolean(), default: true },
  require_approval: { schema: z.boolean(), default: true },
  require_terms_acceptance_on_register: { schema: z.boolean(), default: false },
  password_expiration_warning_days: { schema: z.number().int().min(0).max(365), default: 7 },
  /** Passwords older than this must be changed at login (`reason: expired`); 0 disables. */
  password_max_age_days: { schema: z.number().int().min(0).max(3650), default: 0 },
  /** A password cannot be changed again before this many hours (5306); 0 disables. */
  password_min_age_hours: { schema: z.number().int().min(0).max(8760), default: 0 },
  password_min_length: {
    schema: z.number().int().min(PASSWORD_BOUNDS.minLength).max(PASSWORD_BOUNDS.maxLength),
    default: PASSWORD_BOUNDS.minLength,
  },
  password_require_uppercase: { schema: z.boolean(), default: false },
  password_require_lowercase: { schema: z.boolean(), default: false },
  password_require_digit: { schema: z.boolean(), default: true },
  password_require_symbol: { schema: z.boolean(), default: false },
  // ---- model endpoint allowlist (origins; the models service validates outbound requests)
  model_endpoint_allowlist: { schema: allowlistSchema, default: [...OFFICIAL_MODEL_ORIGINS] as string[] },
  /** Private origins workflow `http_request` nodes may call (docs/workflows.md "http_request"). */
  workflow_http_allowlist: {
    schema: allowlistSchema.max(
      WORKFLOW_HTTP_ALLOWLIST_MAX,
      `at most ${WORKFLOW_HTTP_ALLOWLIST_MAX} entries`,
    ),
    default: [] as string[],
  },
  // ---- email
  smtp_enabled: { schema: z.boolean(), default: CHANNEL.smtp_enabled },
  smtp_host: { schema: shortText, default: CHANNEL.smtp_host },
  smtp_port: { schema: z.number().int().min(1).max(65_535), default: CHANNEL.smtp_port },
  smtp_encryption: { schema: z.enum(['none', 'ssl', 'tls']), default: CHANNEL.smtp_encryption },
  smtp_username: { schema: shortText, default: CHANNEL.smtp_username },
  smtp_password: { schema: shortText, default: CHANNEL.smtp_password, secret: true },
  email_from_name: { schema: shortText, default: CHANNEL.email_from_name },
  email_from_address: { schema: z.union([emailAddress, z.literal('')]), default: CHANNEL.email_from_address },
  // ---- dingtalk
  ...robotChannel('dingtalk'),
  dingtalk_webhook_secret: { schema: shortText, default: CHANNEL.dingtalk_webhook_secret, secret: true },
  dingtalk_app_key: { schema: shortText, default: CHANNEL.dingtalk_app_key },
  dingtalk_app_secret: { schema: shortText, default: CHANNEL.dingtalk_app_secret, secret: true },
  dingtalk_agent_id: { schema: shortText, default: CHANNEL.dingtalk_agent_id },
  // ---- wechat (WeCom)
  ...robotChannel('wechat'),
  wechat_corp_id: { schema: shortText, default: CHANNEL.wechat_corp_id },
  wechat_agent_id: { schema: shortText, default: CHANNEL.wechat_agent_id },
  wechat_secret: { schema: shortText, default: CHANNEL.wechat_secret, secret: true },
  // ---- feishu
  ...robotChannel('feishu'),
  feishu_webhook_secret: { schema: shortText, default: CHANNEL.feishu_webhook_secret, secret: true },
  feishu_app_id: { schema: shortText, default: CHANNEL.feishu_app_id },
  feishu_app_secret: { schema: shortText, default: CHANNEL.feishu_app_secret, secret: true },
  // ---- slack (like the DingTalk, WeCom and Feishu robot URLs, the URL embeds its token: a secret)
  slack_enabled: { schema: z.boolean(), default: CHANNEL.slack_enabled },
  slack_webhook_url: { schema: optionalUrl, default: CHANNEL.slack_webhook_url, secret: true },
  // ---- generic webhook
  webhook_enabled: { schema: z.boolean(), default: CHANNEL.webhook_enabled },
  webhook_url: { schema: optionalUrl, default: CHANNEL.webhook_url },
  webhook_method: { schema: z.enum(['POST', 'GET']), default: CHANNEL.webhook_method },
  // Headers usually carry the receiver's credentials (Authorization, X-Api-Key): a secret.
  webhook_headers: {
    schema: z
      .record(headerName, headerValue)
      .refine((headers) => Object.keys(headers).length <= MAX_WEBHOOK_HEADERS, {
        message: `at most ${MAX_WEBHOOK_HEADERS} headers`,
      }),
    default: CHANNEL.webhook_headers,
    secret: true,
  },
  webhook_body_template: { schema: text(65_536), default: CHANNEL.webhook_body_template },
  webhook_secret: { schema: shortText, default: CHANNEL.webhook_secret, secret: true },
} satisfies Record<string, { schema: z.ZodType; default: unknown; secret?: boolean }>;

export type SettingKey = keyof typeof SETTING_DEFINITIONS;

/** The effective value of every setting (defaults applied, secrets decrypted). */
export type SiteSettings = { [K in SettingKey]: (typeof SETTING_DEFINITIONS)[K]['default'] };

/** The in-code fallback of session_timeout_days when its row is missing (spec). */
export const SESSION_TIMEOUT_FALLBACK_DAYS = 7;

/** Read side used by every identity use case: current settings, cached briefly. */
export interface SettingsReader {
  current(): Promise<SiteSettings>;
}

export function isSecretSetting(key: SettingKey): boolean {
  return (SETTING_DEFINITIONS[key] as { secret?: boolean }).secret === true;
}
