import { defineRange } from './define.js';

/** 1000-1999 General. */
export const GENERAL_ENTRIES = defineRange(400, [
  {
    constant: 'UNKNOWN_ERROR',
    en: 'An unknown error occurred',
    zh: '发生未知错误',
    alternateStatuses: [{ httpStatus: 500, when: 'model-processing path' }],
  },
  {
    constant: 'VALIDATION_ERROR',
    httpStatus: 422,
    en: 'Validation failed',
    zh: '参数校验失败',
    alternateStatuses: [
      { httpStatus: 400, when: 'raised manually by a service rather than by request validation' },
    ],
  },
  {
    constant: 'BAD_REQUEST',
    en: 'Invalid request format or parameters',
    zh: '请求格式或参数有误',
    alternateStatuses: [{ httpStatus: 409, when: 'a few conflicts' }],
  },
  { constant: 'INTERNAL_ERROR', httpStatus: 500, en: 'Internal server error', zh: '服务器内部错误' },
  { constant: 'FORBIDDEN', httpStatus: 403, en: 'This operation is forbidden', zh: '禁止执行此操作' },
]);

/** 2000-2999 Authentication. */
export const AUTH_ENTRIES = defineRange(401, [
  { constant: 'UNAUTHORIZED', en: 'Not authenticated', zh: '未登录或缺少认证凭据' },
  {
    constant: 'INVALID_TOKEN',
    en: 'Invalid or revoked credentials',
    zh: '认证凭据无效或已失效',
    alternateStatuses: [{ httpStatus: 400, when: 'verify-totp: the temp token is invalid' }],
  },
  {
    constant: 'TOKEN_EXPIRED',
    en: 'Credentials have expired',
    zh: '认证凭据已过期',
    alternateStatuses: [{ httpStatus: 400, when: 'verify-totp: the temp token has expired' }],
  },
  {
    constant: 'INVALID_CREDENTIALS',
    httpStatus: 400,
    en: 'Incorrect username or password',
    zh: '用户名或密码错误',
    alternateStatuses: [{ httpStatus: 403, when: 'a JWT cannot be decoded or has expired' }],
  },
  {
    constant: 'INACTIVE_USER',
    en: 'The account is inactive or pending approval',
    zh: '账号未激活或正在等待审核',
    alternateStatuses: [{ httpStatus: 400, when: 'password login' }],
  },
]);

/** 3000-3999 Permission. */
export const PERMISSION_ENTRIES = defineRange(403, [
  { constant: 'PERMISSION_DENIED', en: 'Permission denied', zh: '没有权限执行此操作' },
  { constant: 'INSUFFICIENT_PRIVILEGES', en: 'Superuser privileges are required', zh: '需要超级管理员权限' },
  {
    constant: 'NOT_TEAM_MEMBER',
    en: 'You are not a member of this team',
    zh: '您不是该团队的成员',
    alternateStatuses: [{ httpStatus: 404, when: 'leaving a team' }],
  },
  {
    constant: 'TEAM_ADMIN_REQUIRED',
    en: 'Team owner or admin privileges are required',
    zh: '需要团队所有者或管理员权限',
  },
  { constant: 'TEAM_OWNER_REQUIRED', en: 'Team owner privileges are required', zh: '需要团队所有者权限' },
]);

/** 4000-4999 Resource. */
export const RESOURCE_ENTRIES = defineRange(404, [
  { constant: 'NOT_FOUND', en: 'Resource not found', zh: '资源不存在' },
  { constant: 'USER_NOT_FOUND', en: 'User not found', zh: '用户不存在' },
  { constant: 'ROLE_NOT_FOUND', en: 'Role not found', zh: '角色不存在' },
  { constant: 'PERMISSION_NOT_FOUND', en: 'Permission not found', zh: '权限不存在' },
  { constant: 'TEAM_NOT_FOUND', en: 'Team not found', zh: '团队不存在' },
  { constant: 'TEAM_MEMBER_NOT_FOUND', en: 'Team member not found', zh: '团队成员不存在' },
]);
