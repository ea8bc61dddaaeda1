import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasPermission, isGlobalAdmin, requirePermission, requirePrincipal } from '@platform/rbac';

export const MODEL_PERMISSIONS = {
  create: 'admin:model:create',
  update: 'admin:model:update',
  delete: 'admin:model:delete',
} as const;

/** Reading the admin model list: global admin access, or `admin:model:create|update`. */
export function requireModelReader(principal: Principal | undefined): Principal {
  const caller = requirePrincipal(principal);
  if (
    isGlobalAdmin(caller) ||
    hasPermission(caller, MODEL_PERMISSIONS.create) ||
    hasPermission(caller, MODEL_PERMISSIONS.update)
  ) {
    return caller;
  }
  throw new BusinessError(ErrorCode.PERMISSION_DENIED);
}

/** Create (and test, discover), update, delete: the matching `admin:model:*` code. */
export function requireModelPermission(
  principal: Principal | undefined,
  action: keyof typeof MODEL_PERMISSIONS,
): Principal {
  return requirePermission(principal, MODEL_PERMISSIONS[action]);
}
