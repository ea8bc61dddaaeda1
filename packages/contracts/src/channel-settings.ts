/**
 * The notification channel settings (spec "Notification channel settings"): their names, types
 * and defaults, written once. Identity stores and serves them (its SETTING_DEFINITIONS take these
 * defaults); notifications reads them back to send (a missing name falls back to its default).
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

export const CHANNEL_SETTING_DEFAULTS: Readonly<ChannelSettings> = Object.freeze({
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
});

/** What sending one mail needs to know. */
export type SmtpSettings = Pick<
  ChannelSettings,
  | 'smtp_enabled'
  | 'smtp_host'
  | 'smtp_port'
  | 'smtp_encryption'
  | 'smtp_username'
  | 'smtp_password'
  | 'email_from_name'
  | 'email_from_address'
>;

/** The sender address: `email_from_address`, else the SMTP username when it is an address. */
export function mailFromAddress(s: Pick<SmtpSettings, 'email_from_address' | 'smtp_username'>): string {
  if (s.email_from_address) return s.email_from_address;
  return s.smtp_username.includes('@') ? s.smtp_username : '';
}

/**
 * SMTP has what a send needs (enabled or not): a host, a sender address and a TCP port. The
 * stricter of the two rules it replaces: identity checked host and sender but no port,
 * notifications checked `port > 0` (so 70000 or 1.5 passed); a port is an integer 1-65535.
 */
export function isSmtpConfigured(s: Omit<SmtpSettings, 'smtp_enabled'>): boolean {
  return (
    s.smtp_host.trim() !== '' &&
    mailFromAddress(s).trim() !== '' &&
    Number.isInteger(s.smtp_port) &&
    s.smtp_port >= 1 &&
    s.smtp_port <= 65_535
  );
}

/** SMTP may send: enabled and configured (identity's mail and notifications' email channel). */
export function isSmtpReady(s: SmtpSettings): boolean {
  return s.smtp_enabled && isSmtpConfigured(s);
}
