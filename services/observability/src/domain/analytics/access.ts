import type { Principal } from '@platform/grpc';
import { GLOBAL_ADMIN_PERMISSION, requirePermission } from '@platform/rbac';

/**
 * Superusers and roles whose codes cover `admin:dashboard:access` (`hasPermission`, so `admin:*`
 * too, as the gateway's route check); 401 / 2000 without a principal.
 */
export function requireDashboard(principal: Principal | undefined): Principal {
  return requirePermission(principal, GLOBAL_ADMIN_PERMISSION);
}
