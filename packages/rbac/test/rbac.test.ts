import { describe, expect, it } from 'vitest';
import {
  hasPermission,
  hasTeamRole,
  holdsEverything,
  isGlobalAdmin,
  permissionMatches,
} from '../src/index.js';

const user = (permissions: string[], is_superuser = false) => ({ is_superuser, permissions });

describe('permissionMatches', () => {
  it.each([
    ['*', 'apikey:create', true],
    ['*', 'admin:dashboard:access', true],
    ['apikey:create', 'apikey:create', true],
    ['apikey:create', 'apikey:read', false],
    ['apikey:*', 'apikey:create', true],
    ['apikey:*', 'apikey:read', true],
    ['apikey:*', 'apikeys:read', false],
    ['apikey:*', 'workflow:read', false],
    ['admin:*', 'admin:settings:update', true],
    ['admin:settings:*', 'admin:settings:read', true],
    ['admin:settings:*', 'admin:users:read', false],
    ['apikey', 'apikey:read', false],
    ['apikey:read', 'apikey:*', false],
  ])('%s covers %s: %s', (granted, required, expected) => {
    expect(permissionMatches(granted, required)).toBe(expected);
  });
});

describe('hasPermission', () => {
  it('superusers hold everything, even with no codes', () => {
    expect(hasPermission(user([], true), 'admin:roles:manage')).toBe(true);
  });

  it('any one covering code is enough; none is a refusal', () => {
    expect(hasPermission(user(['workflow:read', 'apikey:*']), 'apikey:delete')).toBe(true);
    expect(hasPermission(user(['workflow:read', 'apikey:read']), 'apikey:delete')).toBe(false);
    expect(hasPermission(user([]), 'apikey:read')).toBe(false);
  });
});

describe('isGlobalAdmin', () => {
  it('superuser, admin:dashboard:access or * make a global admin', () => {
    expect(isGlobalAdmin(user([], true))).toBe(true);
    expect(isGlobalAdmin(user(['admin:dashboard:access']))).toBe(true);
    expect(isGlobalAdmin(user(['*']))).toBe(true);
  });

  it('other admin codes, a wildcard on admin:* and no caller do not', () => {
    expect(isGlobalAdmin(user(['admin:settings:update', 'admin:users:read']))).toBe(false);
    expect(isGlobalAdmin(user(['admin:*']))).toBe(false);
    expect(isGlobalAdmin(undefined)).toBe(false);
  });
});

describe('holdsEverything', () => {
  it('only superusers and holders of * may grant *', () => {
    expect(holdsEverything(user([], true))).toBe(true);
    expect(holdsEverything(user(['*']))).toBe(true);
    expect(holdsEverything(user(['admin:dashboard:access', 'admin:roles:manage']))).toBe(false);
  });
});

describe('hasTeamRole (at least)', () => {
  it.each([
    ['OWNER', 'OWNER', true],
    ['OWNER', 'ADMIN', true],
    ['OWNER', 'MEMBER', true],
    ['ADMIN', 'OWNER', false],
    ['ADMIN', 'ADMIN', true],
    ['ADMIN', 'MEMBER', true],
    ['MEMBER', 'ADMIN', false],
    ['MEMBER', 'MEMBER', true],
  ] as const)('%s is at least %s: %s', (role, minimum, expected) => {
    expect(hasTeamRole(role, minimum)).toBe(expected);
  });

  it('no role, an empty role or an unknown one is never enough', () => {
    expect(hasTeamRole(undefined, 'MEMBER')).toBe(false);
    expect(hasTeamRole(null, 'MEMBER')).toBe(false);
    expect(hasTeamRole('', 'MEMBER')).toBe(false);
    expect(hasTeamRole('owner', 'MEMBER')).toBe(false);
  });
});
