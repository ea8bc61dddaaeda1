/** The parts of a caller the permission rules look at (a gRPC `Principal` has them). */
export interface PermissionHolder {
  is_superuser: boolean;
  /** Permission codes granted through roles. */
  permissions: readonly string[];
}

/** Grants everything, global admin included. */
export const ALL_PERMISSIONS = '*';

/** Makes a role's holders global admins (dashboards, every team, everyone's API keys). */
export const GLOBAL_ADMIN_PERMISSION = 'admin:dashboard:access';

/**
 * Whether one granted code covers the required one: `*` covers everything, `apikey:*` every
 * `apikey:…` code, anything else only itself.
 */
export function permissionMatches(granted: string, required: string): boolean {
  if (granted === ALL_PERMISSIONS || granted === required) return true;
  return granted.endsWith(':*') && required.startsWith(granted.slice(0, -1));
}

/** Superusers hold every permission; everyone else what one of their codes covers. */
export function hasPermission(holder: PermissionHolder, required: string): boolean {
  return holder.is_superuser || holder.permissions.some((granted) => permissionMatches(granted, required));
}

/**
 * The spec's global-admin rule: a superuser, or a role granting `admin:dashboard:access` or `*`.
 * Global admins see and manage every team and every user's keys.
 */
export function isGlobalAdmin(holder: PermissionHolder | undefined): boolean {
  if (!holder) return false;
  return (
    holder.is_superuser ||
    holder.permissions.includes(ALL_PERMISSIONS) ||
    holder.permissions.includes(GLOBAL_ADMIN_PERMISSION)
  );
}

/** Only a caller who already holds everything may hand out `*` (no self-escalation through roles). */
export function holdsEverything(holder: PermissionHolder): boolean {
  return holder.is_superuser || holder.permissions.includes(ALL_PERMISSIONS);
}
