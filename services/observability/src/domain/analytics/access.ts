import type { Principal } from '@platform/grpc';
import { requirePermission } from '@platform/rbac';

export const DASHBOARD_PERMISSION = 'admin:dashboard:access';

/** Superusers and roles holding `admin:dashboard:access`; 401 / 2000 without a principal. */
export function requireDashboard(principal: Principal | undefined): Principal {
  return requirePermission(principal, DASHBOARD_PERMISSION);
}
