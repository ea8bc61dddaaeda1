import { defineRange } from './define.js';

/** 5000-5099 Registration and accounts. */
export const ACCOUNT_ENTRIES = defineRange(400, [
  { constant: 'REGISTRATION_DISABLED', en: 'Registration is disabled', zh: '系统暂未开放注册' },
  { constant: 'ALREADY_EXISTS', en: 'The resource already exists', zh: '资源已存在' },
  { constant: 'USERNAME_EXISTS', en: 'Username already exists', zh: '用户名已存在' },
  { constant: 'EMAIL_EXISTS', en: 'This email is already registered', zh: '该邮箱已被注册' },
  {
    constant: 'EMAIL_NOT_VERIFIED',
    en: 'Please verify your email before signing in',
    zh: '请先完成邮箱验证再登录',
  },
  {
    constant: 'VERIFICATION_CODE_INVALID',
    en: 'Invalid verification code or token',
    zh: '验证码或验证链接无效',
  },
  {
    constant: 'VERIFICATION_CODE_EXPIRED',
    en: 'The verification code or link has expired',
    zh: '验证码或验证链接已过期',
  },
  {
    constant: 'EMAIL_SEND_FAILED',
    en: 'Failed to send email; the email service may not be configured',
    zh: '邮件发送失败，邮件服务可能尚未配置',
  },
  {
    constant: 'EMAIL_SEND_TOO_FREQUENT',
    en: 'Emails are requested too often; please try again in {remaining_seconds} seconds',
    zh: '邮件发送过于频繁，请在 {remaining_seconds} 秒后重试',
  },
]);

/** 5100-5199 Duplicates. */
export const DUPLICATE_ENTRIES = defineRange(400, [
  { constant: 'ROLE_NAME_EXISTS', en: 'Role name already exists', zh: '角色名称已存在' },
  { constant: 'PERMISSION_CODE_EXISTS', en: 'Permission code already exists', zh: '权限编码已存在' },
  { constant: 'TEAM_NAME_EXISTS', en: 'Team name already exists', zh: '团队名称已存在' },
  {
    constant: 'ALREADY_TEAM_MEMBER',
    en: 'The user is already a member of this team',
    zh: '该用户已是团队成员',
  },
  { constant: 'DUPLICATE_NAME', en: 'This name is already in use', zh: '该名称已被使用' },
]);

/** 5200-5299 Forbidden operations. */
export const FORBIDDEN_OPERATION_ENTRIES = defineRange(400, [
  { constant: 'CANNOT_DELETE_SYSTEM_ROLE', en: 'System roles cannot be deleted', zh: '系统角色不能删除' },
  { constant: 'CANNOT_DELETE_SUPERUSER', en: 'A superuser cannot be deleted', zh: '不能删除超级管理员' },
  {
    constant: 'CANNOT_DELETE_SYSTEM_PERMISSION',
    en: 'System permissions cannot be deleted',
    zh: '系统权限不能删除',
  },
  {
    constant: 'CANNOT_UPDATE_SYSTEM_PERMISSION',
    en: 'System permissions cannot be modified',
    zh: '系统权限不能修改',
  },
  { constant: 'CANNOT_MODIFY_SYSTEM_ROLE', en: 'System roles cannot be modified', zh: '系统角色不能修改' },
  {
    constant: 'CANNOT_DELETE_DEFAULT_TEAM',
    en: 'The default team cannot be deleted',
    zh: '默认团队不能删除',
  },
  {
    constant: 'CANNOT_ADD_AS_OWNER',
    en: 'A member cannot be added as owner',
    zh: '不能以所有者身份添加成员',
  },
  {
    constant: 'CANNOT_CHANGE_OWNER_ROLE',
    en: "The team owner's role cannot be changed",
    zh: '不能修改团队所有者的角色',
  },
  {
    constant: 'CANNOT_PROMOTE_TO_OWNER',
    en: 'A member cannot be promoted to owner; transfer ownership instead',
    zh: '不能直接将成员设为所有者，请使用转让所有权',
  },
  { constant: 'CANNOT_REMOVE_OWNER', en: 'The team owner cannot be removed', zh: '不能移除团队所有者' },
  {
    constant: 'OWNER_CANNOT_LEAVE',
    en: 'The team owner cannot leave the team; transfer ownership first',
    zh: '团队所有者不能退出团队，请先转让所有权',
  },
  { constant: 'ROLE_IN_USE', en: 'The role is still assigned to users', zh: '该角色仍有用户在使用' },
  { constant: 'USER_ALREADY_ACTIVE', en: 'The user is already active', zh: '该用户已处于启用状态' },
  { constant: 'USER_ALREADY_INACTIVE', en: 'The user is already inactive', zh: '该用户已处于停用状态' },
  {
    constant: 'CANNOT_DEACTIVATE_SUPERUSER',
    en: 'A superuser cannot be deactivated',
    zh: '不能停用超级管理员',
  },
]);

/** 5300-5399 Login security. */
export const LOGIN_SECURITY_ENTRIES = defineRange(400, [
  {
    constant: 'ACCOUNT_LOCKED',
    en: 'The account is locked; please try again in {lockout_seconds} seconds',
    zh: '账号已被锁定，请在 {lockout_seconds} 秒后重试',
  },
  {
    constant: 'TOO_MANY_LOGIN_ATTEMPTS',
    reserved: true,
    en: 'Too many login attempts',
    zh: '登录尝试次数过多',
  },
  { constant: 'CAPTCHA_REQUIRED', en: 'Please complete the captcha', zh: '请先完成人机验证' },
  {
    constant: 'CAPTCHA_INVALID',
    en: 'Captcha verification failed or has expired',
    zh: '人机验证失败或已过期',
  },
  { constant: 'PASSWORD_EXPIRED', reserved: true, en: 'Your password has expired', zh: '密码已过期' },
  {
    constant: 'FORCE_PASSWORD_CHANGE_REQUIRED',
    reserved: true,
    en: 'You must change your password',
    zh: '您必须修改密码',
  },
  {
    constant: 'PASSWORD_MIN_AGE_NOT_MET',
    en: 'The password was changed too recently and cannot be changed yet',
    zh: '密码修改过于频繁，暂时不能再次修改',
  },
  {
    constant: 'PASSWORD_RECENTLY_USED',
    reserved: true,
    en: 'This password was used recently; please choose another one',
    zh: '该密码近期已使用过，请换一个密码',
  },
  {
    constant: 'TOTP_REQUIRED',
    reserved: true,
    en: 'Two-factor authentication is required',
    zh: '需要进行双因素认证',
  },
  { constant: 'TOTP_INVALID', en: 'Invalid two-factor authentication code', zh: '双因素认证码无效' },
  {
    constant: 'TOTP_RATE_LIMITED',
    en: 'Too many verification attempts; please try again in {seconds} seconds',
    zh: '验证尝试次数过多，请在 {seconds} 秒后重试',
  },
  { constant: 'TOTP_NOT_ENABLED', en: 'Two-factor authentication is not enabled', zh: '尚未启用双因素认证' },
  {
    constant: 'TOTP_ALREADY_ENABLED',
    en: 'Two-factor authentication is already enabled',
    zh: '双因素认证已启用',
  },
  {
    constant: 'TOTP_SETUP_EXPIRED',
    en: 'The two-factor setup session has expired; please start again',
    zh: '双因素认证设置已过期，请重新开始',
  },
  {
    constant: 'TOTP_SETUP_REQUIRED',
    reserved: true,
    en: 'Two-factor authentication must be set up first',
    zh: '请先设置双因素认证',
  },
]);

/** 5400-5499 Rate limiting. */
export const RATE_LIMIT_ENTRIES = defineRange(400, [
  {
    constant: 'RATE_LIMITED',
    en: 'Rate limit exceeded; please try again later',
    zh: '请求过于频繁，请稍后重试',
  },
]);
