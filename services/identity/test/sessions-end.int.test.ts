import { principalRevisionKey } from '@platform/auth';
import { beforeAll, describe, expect, it } from 'vitest';
import { login, registerActiveAccount } from './support/auth-accounts.js';
import type { GatewayReplica } from './support/harness.js';
import { createTestUser, roleId, type TestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';

/**
 * Issue 7, "Sessions that outlive what the user did": password change, reset (see
 * routes/forgot-and-reset-password.int.test.ts), deactivation and a forced password change end
 * every earlier token; role and activation changes apply on the very next request on every
 * gateway replica, with the gateways at their production defaults (principal cache on).
 */
const harness = useIdentityHarness({ firstUser: true });
let admin: TestUser;
let replicaB: GatewayReplica;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'sadmin' });
  replicaB = await harness.startGatewayReplica();
  await harness.setSettings({ single_session: false, require_totp: false, enable_captcha: false });
}, 60_000);

const me = (token: string, via: Pick<GatewayReplica, 'request'> = harness) =>
  via.request('GET', '/users/me', { token });
const outcome = (res: { status: number; body: { code: number } }) => [res.status, res.body.code];

describe('tokens issued before a password change end at once', () => {
  it('change-password ends the other sessions; the token of the request is kept; new logins work', async () => {
    const account = await registerActiveAccount(harness, 'chg');
    const other = (await login(harness, account.username, account.password)).body.data.access_token;
    const current = (await login(harness, account.username, account.password)).body.data.access_token;
    expect(outcome(await me(other))).toEqual([200, 0]);
    const changed = await harness.request('POST', '/users/me/change-password', {
      token: current,
      json: { current_password: account.password, new_password: 'brand-new-pass-7' },
    });
    expect(outcome(changed)).toEqual([200, 0]);
    expect(outcome(await me(other))).toEqual([401, 2001]);
    expect(outcome(await me(other, replicaB))).toEqual([401, 2001]);
    expect(outcome(await me(current))).toEqual([200, 0]);
    const fresh = (await login(harness, account.username, 'brand-new-pass-7')).body.data.access_token;
    expect(outcome(await me(fresh))).toEqual([200, 0]);
  });

  it("an admin's force-password-change ends the user's tokens", async () => {
    const target = await createTestUser(harness, { name: 'forced' });
    expect(outcome(await me(target.token))).toEqual([200, 0]);
    const res = await harness.request('POST', `/admin/users/${target.id}/force-password-change`, {
      token: admin.token,
    });
    expect(res.body.code).toBe(0);
    expect(outcome(await me(target.token))).toEqual([401, 2001]);
  });

  it('deactivation ends the tokens: 2004 while inactive, and they stay dead after reactivation', async () => {
    const target = await createTestUser(harness, { name: 'deact' });
    expect(outcome(await me(target.token))).toEqual([200, 0]);
    await harness.request('POST', `/admin/users/${target.id}/deactivate`, { token: admin.token });
    expect(outcome(await me(target.token))).toEqual([401, 2004]);
    await harness.request('POST', `/admin/users/${target.id}/activate`, { token: admin.token });
    expect(outcome(await me(target.token))).toEqual([401, 2001]);
    const fresh = await harness.identity.dependencies.tokens.issue(target.id, 'access', 600);
    expect(outcome(await me(fresh.token))).toEqual([200, 0]);
  });
});

describe('role and activation changes apply on the very next request on every replica', () => {
  const settingsRead = (token: string, via: Pick<GatewayReplica, 'request'>) =>
    via.request('GET', '/admin/site-settings', { token });

  it('roles replaced through replica A: replica B refuses the lost permission on the next request', async () => {
    const target = await createTestUser(harness, { roles: ['Admin'], name: 'demote' });
    // Both replicas have the principal cached with admin:settings:read.
    for (const via of [harness, replicaB, harness, replicaB]) {
      expect(outcome(await settingsRead(target.token, via))).toEqual([200, 0]);
    }
    const res = await harness.request('PUT', `/admin/users/${target.id}/roles`, {
      token: admin.token,
      json: { role_ids: [await roleId(harness, 'User')] },
    });
    expect(res.body.code).toBe(0);
    expect(outcome(await settingsRead(target.token, replicaB))).toEqual([403, 3000]);
    expect(outcome(await settingsRead(target.token, harness))).toEqual([403, 3000]);
  });

  it("a role's permissions changed through replica A: its holders lose them on replica B at once", async () => {
    const { pool } = harness.identity.dependencies;
    const name = `Settings reader ${Date.now()}`;
    await pool.query(
      `WITH r AS (INSERT INTO roles (name) VALUES ($1) RETURNING id)
       INSERT INTO role_permissions SELECT id, 'admin:settings:read' FROM r`,
      [name],
    );
    const holder = await createTestUser(harness, { roles: [name], name: 'holder' });
    for (const via of [harness, replicaB]) {
      expect(outcome(await settingsRead(holder.token, via))).toEqual([200, 0]);
    }
    const res = await harness.request('PUT', `/admin/roles/${await roleId(harness, name)}`, {
      token: admin.token,
      json: { permissions: ['admin:users:read'] },
    });
    expect(res.body.code).toBe(0);
    expect(outcome(await settingsRead(holder.token, replicaB))).toEqual([403, 3000]);
  });

  it('deactivated through replica A: /users/me through replica B answers 401 / 2004 on the next request', async () => {
    const target = await createTestUser(harness, { name: 'gone' });
    for (const via of [harness, replicaB, harness, replicaB])
      expect(outcome(await me(target.token, via))).toEqual([200, 0]);
    const off = await harness.request('POST', `/admin/users/${target.id}/deactivate`, { token: admin.token });
    expect(off.body.code).toBe(0);
    const next = await me(target.token, replicaB);
    expect([next.status, next.body.code]).toEqual([401, 2004]);
  });

  it('activated through replica A: replica B lets the user in on the next request', async () => {
    const target = await createTestUser(harness, { name: 'back', isActive: false });
    expect(outcome(await me(target.token, replicaB))).toEqual([401, 2004]);
    await harness.request('POST', `/admin/users/${target.id}/activate`, { token: admin.token });
    expect(outcome(await me(target.token, replicaB))).toEqual([200, 0]);
  });
});

describe('team membership changes reach every gateway on the next request', () => {
  // Team ids travel in the principal, so a membership change drops the users' principal revision
  // the way role changes do (what replica B compares before using its cached principal).
  it('creating, joining, leaving and deleting a team each drop the revision of the users concerned', async () => {
    const { redis } = harness.identity.dependencies;
    const owner = await createTestUser(harness, { name: 'towner' });
    const member = await createTestUser(harness, { name: 'tmember' });
    const mark = (...users: TestUser[]) =>
      Promise.all(users.map((user) => redis.set(principalRevisionKey(user.id), 'before')));
    const kept = async (user: TestUser) => (await redis.get(principalRevisionKey(user.id))) === 'before';

    await mark(owner, member);
    const created = await harness.request('POST', '/teams', {
      token: owner.token,
      json: { name: `rev-${owner.id.slice(0, 8)}` },
    });
    expect(created.body.code).toBe(0);
    expect([await kept(owner), await kept(member)]).toEqual([false, true]);
    const teamId = created.body.data.id as string;

    await mark(owner, member);
    const added = await harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: member.id, role: 'MEMBER' },
    });
    expect(added.body.code).toBe(0);
    expect([await kept(owner), await kept(member)]).toEqual([true, false]);

    await mark(member);
    expect((await harness.request('POST', `/teams/${teamId}/leave`, { token: member.token })).body.code).toBe(
      0,
    );
    expect(await kept(member)).toBe(false);

    await harness.request('POST', `/teams/${teamId}/members`, {
      token: owner.token,
      json: { user_id: member.id, role: 'MEMBER' },
    });
    await mark(owner, member);
    expect((await harness.request('DELETE', `/teams/${teamId}`, { token: owner.token })).body.code).toBe(0);
    expect([await kept(owner), await kept(member)]).toEqual([false, false]);
  });
});
