import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';

/**
 * The caller as authenticated by the gateway. The gateway already checked the route permission;
 * services check again so a call that bypasses the edge (another service, a misconfigured route)
 * cannot act without one.
 */
export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw new BusinessError(ErrorCode.UNAUTHORIZED);
  return principal;
}

export function requirePermission(principal: Principal | undefined, permission: string): Principal {
  const caller = requirePrincipal(principal);
  if (!hasPermission(caller, permission)) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
  return caller;
}
