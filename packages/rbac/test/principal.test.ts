import { BusinessError, ErrorCode } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { requirePermission, requirePrincipal } from '../src/index.js';

const caller = (permissions: string[], is_superuser = false) => ({
  user_id: 'u1',
  is_superuser,
  permissions,
});

function thrown(run: () => unknown): BusinessError {
  try {
    run();
  } catch (error) {
    if (error instanceof BusinessError) return error;
    throw error;
  }
  throw new Error('expected a BusinessError');
}

describe('requirePrincipal', () => {
  it('returns the caller it was given, unchanged', () => {
    const principal = caller([]);
    expect(requirePrincipal(principal)).toBe(principal);
  });

  it.each([undefined, null])('refuses %s with 401 / 2000', (missing) => {
    const error = thrown(() => requirePrincipal(missing));
    expect(error.code).toBe(ErrorCode.UNAUTHORIZED);
    expect(error.code).toBe(2000);
    expect(error.httpStatus).toBe(401);
  });
});

describe('requirePermission', () => {
  it('returns a caller whose codes cover the permission', () => {
    const principal = caller(['apikey:*']);
    expect(requirePermission(principal, 'apikey:create')).toBe(principal);
    expect(requirePermission(caller(['*']), 'admin:model:update').user_id).toBe('u1');
    expect(requirePermission(caller([], true), 'admin:model:update').user_id).toBe('u1');
  });

  it('refuses a caller without the permission with 403 / 3000', () => {
    const error = thrown(() => requirePermission(caller(['apikey:read']), 'apikey:create'));
    expect(error.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(error.code).toBe(3000);
    expect(error.httpStatus).toBe(403);
  });

  it('refuses no caller with 401 / 2000 before looking at permissions', () => {
    const error = thrown(() => requirePermission(undefined, 'apikey:create'));
    expect(error.code).toBe(ErrorCode.UNAUTHORIZED);
    expect(error.httpStatus).toBe(401);
  });
});
