import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { isGlobalAdmin, requirePermission, requirePrincipal } from '@platform/rbac';

/**
 * Key management is for JWT users with the permission; the gateway checks it first, the service
 * again so a call that bypasses the edge cannot act (API keys never manage keys).
 */
export function requireKeyManager(principal: Principal | undefined, permission: string): Principal {
  const caller = requirePrincipal(principal);
  if (caller.auth_method !== 'jwt') throw BusinessError.named('api_key_not_allowed');
  return requirePermission(caller, permission);
}

/**
 * Which owners' keys the caller may see and change: everyone's for global admins, else their own.
 * Someone else's key is "not found" (4000), never "forbidden", so ids of other users' keys leak nothing.
 */
export function ownerScope(principal: Principal): string | null {
  return isGlobalAdmin(principal) ? null : principal.user_id;
}
