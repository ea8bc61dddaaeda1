import type { Translations } from '../types.js';

/**
 * Error msg keys beyond the catalog's defaults: keys the spec or ARCHITECTURE names for particular
 * failures, plus the gateway's transport-level failures. Raised with `BusinessError.named(key)`
 * (see named-errors.ts for the code and HTTP status of each) or `new BusinessError(code, { msgKey })`.
 */
export const ERROR_KEY_MESSAGES = {
  // Authentication
  session_expired_new_login: {
    en: 'Your session has ended because your account signed in elsewhere; please sign in again',
    zh: '您的账号已在其他地方登录，当前会话已失效，请重新登录',
  },
  token_revoked: {
    en: 'The access token has been revoked; please sign in again',
    zh: '访问令牌已失效，请重新登录',
  },
  token_invalid: {
    en: 'Could not validate credentials: the token is malformed or has expired',
    zh: '无法验证凭据：令牌格式错误或已过期',
  },
  api_key_invalid: { en: 'Invalid or inactive API key', zh: 'API 密钥无效或已停用' },
  api_key_expired: { en: 'The API key has expired', zh: 'API 密钥已过期' },
  temp_token_invalid: {
    en: 'Invalid two-factor login session; please sign in again',
    zh: '双因素登录会话无效，请重新登录',
  },
  temp_token_expired: {
    en: 'The two-factor login session has expired; please sign in again',
    zh: '双因素登录会话已过期，请重新登录',
  },
  account_pending_approval: {
    en: 'Your account is pending administrator approval',
    zh: '您的账号正在等待管理员审核',
  },
  // Permission
  api_key_no_agent_access: {
    en: 'This API key does not have access to the agent',
    zh: '该 API 密钥无权访问此智能体',
  },
  api_key_no_workflow_access: {
    en: 'This API key does not have access to the workflow',
    zh: '该 API 密钥无权访问此工作流',
  },
  api_key_scope_missing: {
    en: 'This API key does not have the scope {scope}',
    zh: '该 API 密钥没有 {scope} 权限范围',
  },
  api_key_not_allowed: {
    en: 'API keys cannot call this endpoint; sign in as a user',
    zh: 'API 密钥不能调用此接口，请以用户身份登录',
  },
  api_key_owner_permission_missing: {
    en: 'The owner of this API key does not hold the permission {permission}',
    zh: '该 API 密钥的所有者没有 {permission} 权限',
  },
  // Notifications
  notification_scope_requires_team: {
    en: 'A team (team_id) is required for this notification scope',
    zh: '该通知范围需要指定团队（team_id）',
  },
  notification_scope_requires_user: {
    en: 'A user (user_id or user_ids) is required for user-scoped notifications',
    zh: '用户范围的通知需要指定用户（user_id 或 user_ids）',
  },
  notification_not_found: { en: 'Notification not found', zh: '通知不存在' },
  // Workflows
  workflow_not_found: { en: 'Workflow not found', zh: '工作流不存在' },
  workflow_snapshot_not_found: { en: 'Workflow version not found', zh: '工作流版本不存在' },
  workflow_snapshot_exists: {
    en: 'A snapshot of version {version} already exists',
    zh: '版本 {version} 的快照已存在',
  },
  workflow_version_not_found: { en: 'Workflow version not found', zh: '工作流版本不存在' },
  workflow_version_busy: {
    en: "Another change to this workflow's versions is in progress; please retry",
    zh: '该工作流的版本正在被其他操作修改，请稍后重试',
  },
  workflow_versions_budget_exceeded: {
    en: 'Your workflow versions hold {used} of {limit} bytes and this needs {needed} more; versions go when their workflow is deleted or 30 days after its last change',
    zh: '您的工作流版本已占用 {used} / {limit} 字节，本次还需 {needed} 字节；版本会随工作流删除，或在工作流最后一次修改 30 天后过期',
  },
  workflow_not_published: {
    en: 'The workflow has never been published; publish it or run it in debug mode',
    zh: '工作流尚未发布，请先发布或以调试模式运行',
  },
  workflow_schema_outdated: {
    en: 'The workflow definition uses an outdated schema version; open and save it to upgrade',
    zh: '工作流定义的架构版本过旧，请打开并保存以升级',
  },
  workflow_node_not_runnable: {
    en: 'Node {node_id} cannot run: {reason}',
    zh: '节点 {node_id} 无法运行：{reason}',
  },
  workflow_run_not_found: { en: 'Workflow run not found', zh: '工作流运行记录不存在' },
  invalid_notification_type: { en: 'Invalid notification type', zh: '无效的通知类型' },
  smtp_not_enabled: { en: 'Email (SMTP) notifications are not enabled', zh: '邮件（SMTP）通知未启用' },
  smtp_not_configured: { en: 'Email (SMTP) is not fully configured', zh: '邮件（SMTP）配置不完整' },
  dingtalk_not_enabled: { en: 'DingTalk notifications are not enabled', zh: '钉钉通知未启用' },
  dingtalk_not_configured: { en: 'DingTalk is not fully configured', zh: '钉钉配置不完整' },
  wechat_not_enabled: { en: 'WeCom notifications are not enabled', zh: '企业微信通知未启用' },
  wechat_not_configured: { en: 'WeCom is not fully configured', zh: '企业微信配置不完整' },
  feishu_not_enabled: { en: 'Feishu notifications are not enabled', zh: '飞书通知未启用' },
  feishu_not_configured: { en: 'Feishu is not fully configured', zh: '飞书配置不完整' },
  webhook_not_enabled: { en: 'Webhook notifications are not enabled', zh: 'Webhook 通知未启用' },
  webhook_not_configured: { en: 'Webhook is not fully configured', zh: 'Webhook 配置不完整' },
  slack_not_enabled: { en: 'Slack notifications are not enabled', zh: 'Slack 通知未启用' },
  slack_not_configured: { en: 'Slack is not fully configured', zh: 'Slack 配置不完整' },
  // Models
  model_type_not_supported: {
    en: 'This provider does not support the model type',
    zh: '该提供方不支持此模型类型',
  },
  embedding_provider_not_supported: {
    en: 'Unsupported provider for embedding',
    zh: '该提供方不支持嵌入（embedding）模型',
  },
  model_endpoint_not_allowed: {
    en: 'The model endpoint is not in the endpoint allowlist',
    zh: '模型接口地址不在允许列表中',
  },
  // Accounts
  email_already_verified: { en: 'This email address is already verified', zh: '该邮箱已完成验证' },
  terms_not_accepted: { en: 'You must accept the terms of service', zh: '请先同意服务条款' },
  current_password_incorrect: { en: 'The current password is incorrect', zh: '当前密码不正确' },
  login_attempts_in_flight: {
    en: 'Too many sign-in attempts for this account at once; please try again in a moment',
    zh: '该账号同时进行的登录尝试过多，请稍后重试',
  },
  unknown_setting: { en: 'Unknown setting', zh: '未知的设置项' },
  // Gateway / transport
  route_not_found: { en: 'Route not found', zh: '请求的接口不存在' },
  method_not_allowed: { en: 'Method not allowed for this path', zh: '该路径不支持此请求方法' },
  service_unavailable: {
    en: 'The service is temporarily unavailable; please try again later',
    zh: '服务暂时不可用，请稍后重试',
  },
  service_timeout: {
    en: 'The service did not respond in time; please try again later',
    zh: '服务响应超时，请稍后重试',
  },
  shutting_down: {
    en: 'This server is shutting down; please retry (another server will answer)',
    zh: '该服务器正在关闭，请重试（将由其他服务器响应）',
  },
  payload_too_large: { en: 'The request body is too large', zh: '请求体过大' },
  malformed_json: { en: 'The request body is not valid JSON', zh: '请求体不是有效的 JSON' },
  unsupported_media_type: { en: 'Unsupported request content type', zh: '不支持的请求内容类型' },
  // TOTP (5313 raised when enable is called before setup)
  totp_setup_not_started: {
    en: 'Start two-factor setup before enabling it',
    zh: '请先开始设置双因素认证，再启用',
  },
  // SSO (1002 / 1004 raised by the SSO flow; the 6301/6303 codes are reserved by the spec)
  sso_state_invalid: {
    en: 'The SSO sign-in is unknown, expired or already used; please start again',
    zh: 'SSO 登录请求无效、已过期或已被使用，请重新登录',
  },
  sso_email_missing: {
    en: 'The identity provider did not share an email address',
    zh: '身份提供方未提供邮箱地址',
  },
  sso_email_not_verified: {
    en: 'This email address belongs to an existing account, but the identity provider has not verified it',
    zh: '该邮箱已属于现有账号，但身份提供方未验证该邮箱',
  },
  sso_last_login_method: {
    en: 'This is your only way to sign in; set a password before removing it',
    zh: '这是您唯一的登录方式，请先设置密码再解除绑定',
  },
} as const satisfies Record<string, Translations>;

export type ErrorKey = keyof typeof ERROR_KEY_MESSAGES;
