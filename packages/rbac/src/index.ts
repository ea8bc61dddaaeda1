export {
  ALL_PERMISSIONS,
  GLOBAL_ADMIN_PERMISSION,
  hasPermission,
  holdsEverything,
  isGlobalAdmin,
  permissionMatches,
  type PermissionHolder,
} from './permissions.js';
export { TEAM_ROLES, hasTeamRole, isTeamRole, type TeamRole } from './team-roles.js';
export { requirePermission, requirePrincipal } from './principal.js';
