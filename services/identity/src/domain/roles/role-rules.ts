import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { holdsEverything } from '@platform/rbac';
import { unknownPermissionCodes, type RoleRow } from '../../data/roles-repository.js';
import type { Pool, PoolClient } from '@platform/db';

export const ROLE_READ_PERMISSION = 'admin:users:read';
export const ROLE_MANAGE_PERMISSION = 'admin:roles:manage';

/** 4003 naming the unknown codes; 3001 when `*` is granted by someone without it. */
export async function checkPermissionCodes(
  db: Pool | PoolClient,
  principal: Principal,
  codes: readonly string[],
): Promise<void> {
  const unknown = await unknownPermissionCodes(db, codes);
  if (unknown.length > 0) {
    throw new BusinessError(ErrorCode.PERMISSION_NOT_FOUND, { data: { unknown_permissions: unknown } });
  }
  if (codes.includes('*') && !holdsEverything(principal)) {
    throw BusinessError.named('insufficient_privileges');
  }
}

export function roleNotFound(): BusinessError {
  return new BusinessError(ErrorCode.ROLE_NOT_FOUND);
}

export function toRoleRecord(row: RoleRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_system: row.is_system,
    is_default: row.is_default,
    permissions: row.permissions,
    user_count: row.user_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
