import type { Translations } from '../types.js';

/**
 * Texts of delivery failures (stored on a delivery as key + params, localized when read) and of
 * the channel tests. Not raised as errors: a delivery's `error_message` and a test's `message`.
 */
export const DELIVERY_MESSAGES = {
  delivery_http_status: {
    en: 'The receiver answered HTTP {status}: {detail}',
    zh: '接收方返回 HTTP {status}：{detail}',
  },
  delivery_timeout: {
    en: 'The receiver did not answer within {seconds} s',
    zh: '接收方在 {seconds} 秒内未响应',
  },
  delivery_connection_failed: {
    en: 'Could not reach the receiver ({reason})',
    zh: '无法连接接收方（{reason}）',
  },
  delivery_vendor_rejected: {
    en: '{channel} rejected the message (code {code}): {detail}',
    zh: '{channel} 拒绝了该消息（错误码 {code}）：{detail}',
  },
  delivery_smtp_rejected: {
    en: 'The mail server refused the message ({code}): {detail}',
    zh: '邮件服务器拒绝了该邮件（{code}）：{detail}',
  },
  delivery_channel_unavailable: {
    en: 'The {channel} channel was switched off or left incomplete before sending ({reason})',
    zh: '发送前 {channel} 渠道已被关闭或配置不完整（{reason}）',
  },
  delivery_no_recipients: {
    en: 'No recipient with an active account and an e-mail address',
    zh: '没有账号有效且有邮箱地址的接收人',
  },
  delivery_url_refused: {
    en: 'The destination address is not allowed ({reason})',
    zh: '目标地址不被允许（{reason}）',
  },
  delivery_app_token_failed: {
    en: 'Could not obtain the {channel} app access token: {detail}',
    zh: '无法获取 {channel} 应用访问令牌：{detail}',
  },
  delivery_recipients_failed: {
    en: '{failed} of {total} recipients could not be reached',
    zh: '{total} 个接收人中有 {failed} 个未能送达',
  },
  channel_test_title: { en: 'Test notification from Agent Platform', zh: 'Agent Platform 测试通知' },
  channel_test_content: {
    en: 'If you can read this, the {channel} channel works.',
    zh: '如果您看到这条消息，说明 {channel} 渠道配置正确。',
  },
  channel_test_rate_limited: {
    en: "The channel's rate limit is reached; try again in {seconds} s",
    zh: '已达到该渠道的发送频率上限，请 {seconds} 秒后重试',
  },
} as const satisfies Record<string, Translations>;

export type DeliveryMessageKey = keyof typeof DELIVERY_MESSAGES;
