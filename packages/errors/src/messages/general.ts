import type { Translations } from '../types.js';

/** Success messages (for `ok()`), prompts, and reasons used inside `data.errors` of a 1001. */
export const GENERAL_MESSAGES = {
  // Success
  success: { en: 'Success', zh: '成功' },
  created: { en: 'Created successfully', zh: '创建成功' },
  updated: { en: 'Updated successfully', zh: '更新成功' },
  deleted: { en: 'Deleted successfully', zh: '删除成功' },
  logged_out: { en: 'Signed out', zh: '已退出登录' },
  registration_success: { en: 'Registration succeeded', zh: '注册成功' },
  registration_pending_approval: {
    en: 'Registration succeeded; your account is awaiting administrator approval',
    zh: '注册成功，请等待管理员审核',
  },
  verification_email_sent: { en: 'Verification email sent', zh: '验证邮件已发送' },
  email_verified: { en: 'Email verified', zh: '邮箱验证成功' },
  password_reset_success: { en: 'Your password has been reset', zh: '密码已重置' },
  password_changed: { en: 'Your password has been changed', zh: '密码已修改' },
  notification_created: { en: 'Notification created', zh: '通知已创建' },
  notifications_created: { en: '{count} notifications created', zh: '已创建 {count} 条通知' },
  notifications_marked_read: { en: 'Notifications marked as read', zh: '通知已标记为已读' },
  channel_test_succeeded: { en: 'Test message sent successfully', zh: '测试消息发送成功' },
  channel_test_failed: { en: 'Test message failed: {detail}', zh: '测试消息发送失败：{detail}' },
  model_test_succeeded: { en: 'Connection succeeded', zh: '连接成功' },
  model_test_failed: { en: 'Connection failed: {detail}', zh: '连接失败：{detail}' },
  delivery_failed: { en: 'Delivery failed: {detail}', zh: '发送失败：{detail}' },
  // Captcha prompt (returned as the key itself in GET /captcha `prompt`)
  captcha_click_prompt: {
    en: 'Click "{target_text}" in the image',
    zh: '请点击图中的“{target_text}”',
  },
  // Field-level reasons for 1001 `data.errors`
  field_required: { en: 'This field is required', zh: '此字段为必填项' },
  field_invalid: { en: 'Invalid value', zh: '值无效' },
  field_too_short: { en: 'Must be at least {min} characters', zh: '长度不能少于 {min} 个字符' },
  field_too_long: { en: 'Must be at most {max} characters', zh: '长度不能超过 {max} 个字符' },
  value_out_of_range: { en: 'Must be between {min} and {max}', zh: '取值必须在 {min} 到 {max} 之间' },
  value_too_small: { en: 'Must be at least {min}', zh: '不能小于 {min}' },
  invalid_choice: { en: 'Must be one of: {allowed}', zh: '取值必须是以下之一：{allowed}' },
  invalid_type: { en: 'Must be of type {type}', zh: '类型必须为 {type}' },
  invalid_email: { en: 'Invalid email address', zh: '邮箱地址格式不正确' },
  invalid_uuid: { en: 'Must be a valid UUID', zh: '必须是有效的 UUID' },
  invalid_datetime: { en: 'Must be an ISO 8601 date-time', zh: '必须是 ISO 8601 格式的日期时间' },
  invalid_url: { en: 'Must be a valid URL', zh: '必须是有效的 URL' },
  unknown_field: { en: 'Unknown field', zh: '未知字段' },
  password_too_short: {
    en: 'Password must be at least {min_length} characters',
    zh: '密码长度不能少于 {min_length} 个字符',
  },
  password_too_long: {
    en: 'Password must be at most {max_length} characters',
    zh: '密码长度不能超过 {max_length} 个字符',
  },
  password_requires_uppercase: {
    en: 'Password must contain an uppercase letter',
    zh: '密码必须包含大写字母',
  },
  password_requires_lowercase: {
    en: 'Password must contain a lowercase letter',
    zh: '密码必须包含小写字母',
  },
  password_requires_digit: { en: 'Password must contain a digit', zh: '密码必须包含数字' },
  password_requires_special: {
    en: 'Password must contain a special character',
    zh: '密码必须包含特殊字符',
  },
} as const satisfies Record<string, Translations>;

export type GeneralKey = keyof typeof GENERAL_MESSAGES;
