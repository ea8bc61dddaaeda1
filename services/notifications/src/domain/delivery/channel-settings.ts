import { BusinessError } from '@platform/errors';
import type { ChannelName } from '../delivery-port.js';

/**
 * The site settings the senders read (spec "Notification channel settings"), as identity's
 * GetEffectiveSettings returns them (secrets decrypted). Missing names fall back to the defaults.
 */
export interface ChannelSettings {
  smtp_enabled: boolean;
  smtp_host: string;
  smtp_port: number;
  smtp_encryption: 'none' | 'ssl' | 'tls';
  smtp_username: string;
  smtp_password: string;
  email_from_name: string;
  email_from_address: string;
  dingtalk_enabled: boolean;
  dingtalk_notification_type: 'webhook' | 'app';
  dingtalk_webhook_url: string;
  dingtalk_webhook_secret: string;
  dingtalk_app_key: string;
  dingtalk_app_secret: string;
  dingtalk_agent_id: string;
  wechat_enabled: boolean;
  wechat_notification_type: 'webhook' | 'app';
  wechat_webhook_url: string;
  wechat_corp_id: string;
  wechat_agent_id: string;
  wechat_secret: string;
  feishu_enabled: boolean;
  feishu_notification_type: 'webhook' | 'app';
  feishu_webhook_url: string;
  feishu_webhook_secret: string;
  feishu_app_id: string;
  feishu_app_secret: string;
  slack_enabled: boolean;
  slack_webhook_url: string;
  webhook_enabled: boolean;
  webhook_url: string;
  webhook_method: 'POST' | 'GET';
  webhook_headers: Record<string, string>;
  webhook_body_template: string;
  webhook_secret: string;
}

export const CHANNEL_DEFAULTS: ChannelSettings = {
  smtp_enabled: false,
  smtp_host: '',
  smtp_port: 587,
  smtp_encryption: 'tls',
  smtp_username: '',
  smtp_password: '',
  email_from_name: 'Agent Platform',
  email_from_address: '',
  dingtalk_enabled: false,
  dingtalk_notification_type: 'webhook',
  dingtalk_webhook_url: '',
  dingtalk_webhook_secret: '',
  dingtalk_app_key: '',
  dingtalk_app_secret: '',
  dingtalk_agent_id: '',
  wechat_enabled: false,
  wechat_notification_type: 'webhook',
  wechat_webhook_url: '',
  wechat_corp_id: '',
  wechat_agent_id: '',
  wechat_secret: '',
  feishu_enabled: false,
  feishu_notification_type: 'webhook',
  feishu_webhook_url: '',
  feishu_webhook_secret: '',
  feishu_app_id: '',
  feishu_app_secret: '',
  slack_enabled: false,
  slack_webhook_url: '',
  webhook_enabled: false,
  webhook_url: '',
  webhook_method: 'POST',
  webhook_headers: {},
  webhook_body_template: '',
  webhook_secret: '',
};

/** Keeps only known names whose value has the default's JSON type; everything else is the default. */
export function channelSettingsFrom(raw: Readonly<Record<string, unknown>>): ChannelSettings {
  const out: Record<string, unknown> = { ...CHANNEL_DEFAULTS };
  for (const [key, fallback] of Object.entries(CHANNEL_DEFAULTS)) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    if (typeof fallback === 'object') {
      if (typeof value === 'object' && !Array.isArray(value)) {
        out[key] = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
        );
      }
    } else if (typeof value === typeof fallback) out[key] = value;
  }
  return out as unknown as ChannelSettings;
}

/** `email_from_address`, else the SMTP username when it is an address (identity's old rule). */
export function mailFromAddress(s: ChannelSettings): string {
  if (s.email_from_address) return s.email_from_address;
  return s.smtp_username.includes('@') ? s.smtp_username : '';
}

const filled = (...values: string[]) => values.every((v) => v.trim() !== '');

/** Whether each channel has what it needs to send (enabled is checked apart). */
const CONFIGURED: Record<ChannelName, (s: ChannelSettings) => boolean> = {
  email: (s) => filled(s.smtp_host, mailFromAddress(s)) && s.smtp_port > 0,
  dingtalk: (s) =>
    s.dingtalk_notification_type === 'app'
      ? filled(s.dingtalk_app_key, s.dingtalk_app_secret, s.dingtalk_agent_id)
      : filled(s.dingtalk_webhook_url),
  wechat: (s) =>
    s.wechat_notification_type === 'app'
      ? filled(s.wechat_corp_id, s.wechat_agent_id, s.wechat_secret)
      : filled(s.wechat_webhook_url),
  feishu: (s) =>
    s.feishu_notification_type === 'app'
      ? filled(s.feishu_app_id, s.feishu_app_secret)
      : filled(s.feishu_webhook_url),
  slack: (s) => filled(s.slack_webhook_url),
  webhook: (s) => filled(s.webhook_url),
};

const ENABLED: Record<ChannelName, (s: ChannelSettings) => boolean> = {
  email: (s) => s.smtp_enabled,
  dingtalk: (s) => s.dingtalk_enabled,
  wechat: (s) => s.wechat_enabled,
  feishu: (s) => s.feishu_enabled,
  slack: (s) => s.slack_enabled,
  webhook: (s) => s.webhook_enabled,
};

/** The spec's key prefix of each channel (`email` is `smtp_*`). */
const KEY_PREFIX = {
  email: 'smtp',
  dingtalk: 'dingtalk',
  wechat: 'wechat',
  feishu: 'feishu',
  slack: 'slack',
  webhook: 'webhook',
} as const satisfies Record<ChannelName, string>;

type KeyPrefix = (typeof KEY_PREFIX)[ChannelName];
export type ChannelProblem = `${KeyPrefix}_not_enabled` | `${KeyPrefix}_not_configured`;

/** The spec's failure key when `channel` cannot deliver with these settings, else null. */
export function channelProblem(
  channel: ChannelName,
  settings: ChannelSettings,
  options: { ignoreEnabled?: boolean } = {},
): ChannelProblem | null {
  if (!options.ignoreEnabled && !ENABLED[channel](settings)) return `${KEY_PREFIX[channel]}_not_enabled`;
  if (!CONFIGURED[channel](settings)) return `${KEY_PREFIX[channel]}_not_configured`;
  return null;
}

/** Throws the first channel's `*_not_enabled` / `*_not_configured` as a named business error. */
export function assertChannelsReady(channels: readonly ChannelName[], settings: ChannelSettings): void {
  for (const channel of channels) {
    const problem = channelProblem(channel, settings);
    if (problem) throw BusinessError.named(problem);
  }
}
