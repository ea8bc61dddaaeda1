import type { IdentityUser } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { NotificationsHarness } from './harness.js';

/** The callers the admin tests need, set up through identity's own routes. */
export interface AdminCast {
  superuser: IdentityUser;
  /** Role `Admin`: a global admin, not a superuser. */
  admin: IdentityUser;
  plain: IdentityUser;
  /** Hold admin:notification:create/delete but are no global admins: ADMIN and MEMBER of `teamId`. */
  teamAdmin: IdentityUser;
  teamMember: IdentityUser;
  teamId: string;
}

export async function adminCast(h: NotificationsHarness): Promise<AdminCast> {
  const superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  const admin = await h.createUser({ name: 'admin', roles: ['Admin'] });
  const plain = await h.createUser({ name: 'plain' });
  const role = await h.request('POST', '/admin/roles', {
    token: superuser.token,
    json: {
      name: `Notifier ${randomUUID().slice(0, 8)}`,
      permissions: ['admin:notification:create', 'admin:notification:delete'],
    },
  });
  expect(role.body.code).toBe(0);
  const teamAdmin = await h.createUser({ name: 'tadmin', roles: ['User', role.body.data.name] });
  const teamMember = await h.createUser({ name: 'tmember', roles: ['User', role.body.data.name] });
  const owner = await h.createUser({ name: 'owner' });
  const teamId = await h.createTeam(owner, [{ user: teamAdmin, role: 'ADMIN' }, { user: teamMember }]);
  return { superuser, admin, plain, teamAdmin, teamMember, teamId };
}

export function expectError(
  response: { status: number; body: { code: number; data: { error_key?: string } } },
  status: number,
  code: number,
  key?: string,
): void {
  expect([response.status, response.body.code]).toEqual([status, code]);
  if (key) expect(response.body.data.error_key).toBe(key);
}
