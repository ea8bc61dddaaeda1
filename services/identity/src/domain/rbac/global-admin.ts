/** The parts of a principal the global-admin rule looks at. */
export interface AdminCandidate {
  is_superuser: boolean;
  permissions: readonly string[];
}

/** Permission that makes a role's holders global admins (dashboards, every team). */
export const GLOBAL_ADMIN_PERMISSION = 'admin:dashboard:access';

/**
 * The spec's global-admin rule, written once: a superuser, or a role granting
 * `admin:dashboard:access` or `*`. Global admins see and manage every team.
 */
export function isGlobalAdmin(principal: AdminCandidate | undefined): boolean {
  if (!principal) return false;
  return (
    principal.is_superuser ||
    principal.permissions.includes('*') ||
    principal.permissions.includes(GLOBAL_ADMIN_PERMISSION)
  );
}
