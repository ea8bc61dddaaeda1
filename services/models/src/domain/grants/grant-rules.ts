import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { requirePermission } from '@platform/rbac';

/** Team grants need `admin:model:update`; the gateway checks it first, the service again. */
export const GRANT_PERMISSION = 'admin:model:update';

export function requireGrantAdmin(principal: Principal | undefined): Principal {
  return requirePermission(principal, GRANT_PERMISSION);
}

/** Quotas are whole numbers from 1 (null = unlimited; a disabled grant is how to allow nothing). */
export const MAX_QUOTA = Number.MAX_SAFE_INTEGER;

export function checkQuota(field: string, value: number | null | undefined): void {
  if (value === null || value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_QUOTA) {
    throw BusinessError.validation(
      { [field]: [`must be a whole number from 1 to ${MAX_QUOTA}, or null for unlimited`] },
      { httpStatus: 400 },
    );
  }
}
