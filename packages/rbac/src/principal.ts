import { BusinessError, ErrorCode } from '@platform/errors';
import { hasPermission, type PermissionHolder } from './permissions.js';

/**
 * The caller the gateway vouched for, or 401 / 2000. The gateway already refused anonymous calls
 * to non-public routes; services check again so a call that bypasses the edge (another service, a
 * misconfigured route) cannot act without one. Generic so each service keeps its own principal type.
 */
export function requirePrincipal<T>(principal: T | null | undefined): T {
  if (!principal) throw new BusinessError(ErrorCode.UNAUTHORIZED);
  return principal;
}

/** A caller holding `permission` (`hasPermission`): 401 / 2000 without one, 403 / 3000 without it. */
export function requirePermission<T extends PermissionHolder>(
  principal: T | null | undefined,
  permission: string,
): T {
  const caller = requirePrincipal(principal);
  if (!hasPermission(caller, permission)) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
  return caller;
}
