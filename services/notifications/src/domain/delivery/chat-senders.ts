import type { ChannelName } from '../delivery-port.js';
import type { ChannelSettings } from './channel-settings.js';
import { VENDOR_LIMITS, type RateWindow } from '../../data/rate-limiter.js';

export type ChatChannel = Exclude<ChannelName, 'email'>;

/** Whether a chat channel runs in app mode (a vendor app reaching users) rather than as a robot. */
export function isAppMode(channel: ChatChannel, s: ChannelSettings): boolean {
  if (channel === 'dingtalk') return s.dingtalk_notification_type === 'app';
  if (channel === 'wechat') return s.wechat_notification_type === 'app';
  if (channel === 'feishu') return s.feishu_notification_type === 'app';
  return false;
}

/** The destination a vendor limit counts against (the robot URL or the app), and its windows. */
export function rateLimitOf(
  channel: ChatChannel,
  s: ChannelSettings,
): { key: string; windows: RateWindow[] } {
  const windows = VENDOR_LIMITS[channel] ?? [];
  switch (channel) {
    case 'dingtalk':
      return {
        key: `dingtalk:${s.dingtalk_notification_type === 'app' ? s.dingtalk_app_key : s.dingtalk_webhook_url}`,
        windows,
      };
    case 'wechat':
      return {
        key: `wechat:${s.wechat_notification_type === 'app' ? s.wechat_corp_id : s.wechat_webhook_url}`,
        windows,
      };
    case 'feishu':
      return {
        key: `feishu:${s.feishu_notification_type === 'app' ? s.feishu_app_id : s.feishu_webhook_url}`,
        windows,
      };
    case 'slack':
      return { key: `slack:${s.slack_webhook_url}`, windows };
    case 'webhook':
      return { key: `webhook:${s.webhook_url}`, windows: [] };
  }
}
