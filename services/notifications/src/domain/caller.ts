import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';

/** Every notification RPC acts for a signed-in user the gateway vouched for. */
export function requireCaller(principal: Principal | undefined): Principal {
  if (!principal) throw new BusinessError(ErrorCode.UNAUTHORIZED);
  return principal;
}

/** The gateway checks route permissions first; the service again, so a call around the edge cannot act. */
export function requirePermission(principal: Principal | undefined, permission: string): Principal {
  const caller = requireCaller(principal);
  if (!hasPermission(caller, permission)) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
  return caller;
}
