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

/** Page and page size of a paged list (1-100, default 20), as every list of the spec. */
export function paging(page: number, pageSize: number) {
  const size = pageSize || 20;
  const number = page || 1;
  if (number < 1 || size < 1 || size > 100) {
    throw BusinessError.validation(
      { page_size: ['page must be >= 1 and page_size 1-100'] },
      { httpStatus: 400 },
    );
  }
  return { page: number, pageSize: size, limit: size, offset: (number - 1) * size };
}
