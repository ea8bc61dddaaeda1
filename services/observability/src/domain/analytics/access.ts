import { ErrorCode, BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';

export const DASHBOARD_PERMISSION = 'admin:dashboard:access';

/** Superusers and roles holding `admin:dashboard:access`; 401 / 2000 without a principal. */
export function requireDashboard(principal: Principal | undefined): Principal {
  if (!principal) throw new BusinessError(ErrorCode.UNAUTHORIZED);
  if (!hasPermission(principal, DASHBOARD_PERMISSION)) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
  return principal;
}
