import { CHANNEL_SETTING_DEFAULTS, isSmtpConfigured, type ChannelSettings } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import type { ChannelName } from '../delivery-port.js';

/** The site settings the senders read, as identity's GetEffectiveSettings returns them (secrets decrypted). */
export type { ChannelSettings };

/** Missing names fall back to these (one table with identity's, in @platform/contracts). */
export const CHANNEL_DEFAULTS = CHANNEL_SETTING_DEFAULTS;

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

const filled = (...values: string[]) => values.every((v) => v.trim() !== '');

/** Whether each channel has what it needs to send (enabled is checked apart). */
const CONFIGURED: Record<ChannelName, (s: ChannelSettings) => boolean> = {
  email: isSmtpConfigured,
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
