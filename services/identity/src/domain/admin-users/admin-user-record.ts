import { BusinessError, ErrorCode } from '@platform/errors';
import type { AdminUserRow } from '../../data/admin-users-repository.js';

export const USERS_READ_PERMISSION = 'admin:users:read';
export const USERS_UPDATE_PERMISSION = 'admin:users:update';

export function userNotFound(): BusinessError {
  return new BusinessError(ErrorCode.USER_NOT_FOUND);
}

export function toAdminUserRecord(row: AdminUserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    is_active: row.is_active,
    is_superuser: row.is_superuser,
    email_verified: row.email_verified,
    approval_status: row.approval_status,
    totp_enabled: row.totp_enabled,
    force_password_change: row.force_password_change,
    roles: row.roles,
    last_login_at: row.last_login_at?.toISOString() ?? '',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
