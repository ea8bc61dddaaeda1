// GET /admin/users, POST /admin/users/{id}/approve|activate|deactivate|force-password-change and
// PUT /admin/users/{id}/roles (gateway routes/identity-admin-users-routes.ts): happy paths, errors,
// bad input and security. Roles themselves: admin-roles.int.test.ts.
import { randomUUID } from 'node:crypto';
import { Topics, type ConsumedMessage } from '@platform/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, roleId as findRoleId, type TestUser } from '../support/rbac-users.js';
import { captureEvents, useIdentityHarness, type EventCapture } from '../support/suite.js';
import { describeRouteSecurity } from '../support/route-security.js';

const harness = useIdentityHarness();
let admin: TestUser;
let superuser: TestUser;
let plain: TestUser;
let reader: TestUser;
let events: EventCapture;

const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'uadmin' });
  superuser = await createTestUser(harness, { roles: ['Super Admin'], superuser: true, name: 'usuper' });
  plain = await createTestUser(harness, { name: 'uplain' });
  const { pool } = harness.identity.dependencies;
  await pool.query(
    `INSERT INTO roles (name) VALUES ('Reader');
     INSERT INTO role_permissions SELECT id, 'admin:users:read' FROM roles WHERE name = 'Reader'`,
  );
  reader = await createTestUser(harness, { roles: ['Reader'], name: 'ureader' });
  events = await captureEvents(harness, 'admin-users', [Topics.NOTIFICATION_EVENTS, Topics.DOMAIN_EVENTS]);
}, 60_000);
afterAll(async () => {
  await events?.stop();
});

function waitForEvent(topic: string, type: string, userId: string): Promise<ConsumedMessage> {
  return events.waitFor(
    (e) =>
      e.topic === topic &&
      e.eventType === type &&
      ((e.value as { user_id?: string; subject?: string }).user_id === userId ||
        (e.value as { subject?: string }).subject === userId),
    `no ${type} on ${topic}`,
  );
}

const roleId = (name: string) => findRoleId(harness, name);

describe('GET /admin/users', () => {
  it('lists users with roles, filtered and paged', async () => {
    const pending = await createTestUser(harness, { approvalStatus: 'pending', name: 'pendingone' });
    const inactive = await createTestUser(harness, { isActive: false, name: 'sleepy' });
    const all = await harness.request('GET', '/admin/users', { token: reader.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ page: 1, page_size: 20 });
    expect(all.body.data.total).toBeGreaterThanOrEqual(6);
    const mine = all.body.data.items.find((u: { id: string }) => u.id === admin.id);
    expect(mine).toMatchObject({ username: admin.username, roles: [{ name: 'Admin' }], last_login_at: null });

    const pendingOnly = await harness.request('GET', '/admin/users?approval_status=pending', {
      token: admin.token,
    });
    expect(pendingOnly.body.data.items.map((u: { id: string }) => u.id)).toEqual([pending.id]);
    const inactiveOnly = await harness.request('GET', '/admin/users?is_active=false', { token: admin.token });
    expect(inactiveOnly.body.data.items.map((u: { id: string }) => u.id)).toEqual([inactive.id]);
    const active = await harness.request('GET', '/admin/users?is_active=1', { token: admin.token });
    expect(active.body.data.items.some((u: { id: string }) => u.id === inactive.id)).toBe(false);
    const search = await harness.request('GET', `/admin/users?search=${inactive.username.toUpperCase()}`, {
      token: admin.token,
    });
    expect(search.body.data.total).toBe(1);
    const byEmail = await harness.request('GET', '/admin/users?search=example.test&page_size=2&page=2', {
      token: admin.token,
    });
    expect(byEmail.body.data.items).toHaveLength(2);
    const wildcard = await harness.request('GET', '/admin/users?search=%25', { token: admin.token });
    expect(wildcard.body.data.total).toBe(0);
  });

  it('needs admin:users:read', async () => {
    const res = await harness.request('GET', '/admin/users', { token: plain.token });
    expect([res.status, res.body.code]).toEqual([403, 3000]);
  });

  it('rejects bad filters and paging', async () => {
    for (const query of [
      'approval_status=rejected',
      'approval_status=pending&approval_status=approved',
      'is_active=maybe',
      `search=${'x'.repeat(101)}`,
      'page=0',
      'page_size=101',
    ]) {
      const res = await harness.request('GET', `/admin/users?${query}`, { token: admin.token });
      expect([res.status, res.body.code], query).toEqual([422, 1001]);
    }
  });
});

describe('approve / activate / deactivate / force-password-change', () => {
  it('approves a pending account: approved AND active (idempotent) and audits it', async () => {
    // As registration leaves it when approval is required: pending and inactive.
    const pending = await createTestUser(harness, {
      approvalStatus: 'pending',
      isActive: false,
      name: 'toapprove',
    });
    const blocked = await harness.request('GET', '/users/me', { token: pending.token });
    expect([blocked.status, blocked.body.code]).toEqual([401, 2004]);
    const res = await harness.request('POST', `/admin/users/${pending.id}/approve`, { token: admin.token });
    expect(res.body.data).toMatchObject({ id: pending.id, approval_status: 'approved', is_active: true });
    // The very next request signs in (no 2004 left).
    const me = await harness.request('GET', '/users/me', { token: pending.token });
    expect([me.status, me.body.code]).toEqual([200, 0]);
    const again = await harness.request('POST', `/admin/users/${pending.id}/approve`, { token: admin.token });
    expect(again.body.code).toBe(0);
    const audit = await harness.identity.dependencies.pool.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'user.approve' AND target_id = $1`,
      [pending.id],
    );
    expect(audit.rows[0].n).toBe(1);
  });

  it('deactivates (events, token refused) and activates again; 5212 and 5213 on repeats', async () => {
    const target = await createTestUser(harness, { name: 'toggle' });
    const off = await harness.request('POST', `/admin/users/${target.id}/deactivate`, { token: admin.token });
    expect(off.body.data).toMatchObject({ is_active: false });
    const refused = await harness.request('GET', '/admin/site-settings', { token: target.token });
    expect([refused.status, refused.body.code]).toEqual([401, 2004]);
    const notification = await waitForEvent(Topics.NOTIFICATION_EVENTS, 'user.deactivated', target.id);
    expect(notification.value).toMatchObject({
      scope: 'user',
      user_id: target.id,
      source_service: 'identity',
    });
    await waitForEvent(Topics.DOMAIN_EVENTS, 'user.deactivated', target.id);
    const twice = await harness.request('POST', `/admin/users/${target.id}/deactivate`, {
      token: admin.token,
    });
    expect([twice.status, twice.body.code]).toEqual([400, 5213]);

    const on = await harness.request('POST', `/admin/users/${target.id}/activate`, { token: admin.token });
    expect(on.body.data.is_active).toBe(true);
    await waitForEvent(Topics.NOTIFICATION_EVENTS, 'user.activated', target.id);
    const already = await harness.request('POST', `/admin/users/${target.id}/activate`, {
      token: admin.token,
    });
    expect([already.status, already.body.code]).toEqual([400, 5212]);
  });

  it('5214: a superuser cannot be deactivated', async () => {
    const res = await harness.request('POST', `/admin/users/${superuser.id}/deactivate`, {
      token: admin.token,
    });
    expect([res.status, res.body.code]).toEqual([400, 5214]);
  });

  it('sets force_password_change', async () => {
    const target = await createTestUser(harness, { name: 'forced' });
    const res = await harness.request('POST', `/admin/users/${target.id}/force-password-change`, {
      token: admin.token,
    });
    expect(res.body.data.force_password_change).toBe(true);
    const { rows } = await harness.identity.dependencies.pool.query(
      'SELECT force_password_change FROM users WHERE id = $1',
      [target.id],
    );
    expect(rows[0].force_password_change).toBe(true);
  });

  it('4001 for unknown users, 422 for malformed ids, 3000 without admin:users:update', async () => {
    for (const action of ['approve', 'activate', 'deactivate', 'force-password-change']) {
      const missing = await harness.request('POST', `/admin/users/${MISSING}/${action}`, {
        token: admin.token,
      });
      expect([missing.status, missing.body.code], action).toEqual([404, 4001]);
      const bad = await harness.request('POST', `/admin/users/nope/${action}`, { token: admin.token });
      expect([bad.status, bad.body.code], action).toEqual([422, 1001]);
      const denied = await harness.request('POST', `/admin/users/${plain.id}/${action}`, {
        token: reader.token,
      });
      expect([denied.status, denied.body.code], action).toEqual([403, 3000]);
    }
  });
});

describe('PUT /admin/users/{id}/roles', () => {
  it('replaces roles, takes effect at the gateway and is audited', async () => {
    const target = await createTestUser(harness, { name: 'promote' });
    const before = await harness.request('GET', '/admin/users', { token: target.token });
    expect(before.body.code).toBe(3000);
    const res = await harness.request('PUT', `/admin/users/${target.id}/roles`, {
      token: admin.token,
      json: { role_ids: [await roleId('Reader'), await roleId('User')] },
    });
    expect(res.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['Reader', 'User']);
    const after = await harness.request('GET', '/admin/users', { token: target.token });
    expect(after.body.code).toBe(0);
    const audit = await harness.identity.dependencies.pool.query(
      `SELECT details FROM audit_log WHERE action = 'user.roles_changed' AND target_id = $1`,
      [target.id],
    );
    expect(audit.rows[0].details.after).toHaveLength(2);
    await waitForEvent(Topics.DOMAIN_EVENTS, 'user.roles_changed', target.id);
    const cleared = await harness.request('PUT', `/admin/users/${target.id}/roles`, {
      token: admin.token,
      json: { role_ids: [] },
    });
    expect(cleared.body.data.roles).toEqual([]);
  });

  it('4002 for unknown role ids, 4001 for an unknown user', async () => {
    const res = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: admin.token,
      json: { role_ids: [MISSING] },
    });
    expect([res.status, res.body.code]).toEqual([404, 4002]);
    expect(res.body.data.unknown_role_ids).toEqual([MISSING]);
    const user = await harness.request('PUT', `/admin/users/${MISSING}/roles`, {
      token: admin.token,
      json: { role_ids: [] },
    });
    expect(user.body.code).toBe(4001);
  });

  it('3001: only a holder of * may change a superuser or grant/remove a * role', async () => {
    const superAdminRole = await roleId('Super Admin');
    const grant = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: admin.token,
      json: { role_ids: [superAdminRole] },
    });
    expect([grant.status, grant.body.code]).toEqual([403, 3001]);
    const demote = await harness.request('PUT', `/admin/users/${superuser.id}/roles`, {
      token: admin.token,
      json: { role_ids: [] },
    });
    expect(demote.body.code).toBe(3001);
    const bySuper = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: superuser.token,
      json: { role_ids: [superAdminRole, await roleId('User')] },
    });
    expect(bySuper.body.code).toBe(0);
    const removeByAdmin = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: admin.token,
      json: { role_ids: [await roleId('User')] },
    });
    expect(removeByAdmin.body.code).toBe(3001);
    await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: superuser.token,
      json: { role_ids: [await roleId('User')] },
    });
  });

  it('rejects bad bodies and callers without admin:users:update', async () => {
    for (const json of [{}, { role_ids: 'x' }, { role_ids: ['not-a-uuid'] }, { role_ids: [1] }]) {
      const res = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
        token: admin.token,
        json,
      });
      expect([res.status, res.body.code], JSON.stringify(json)).toEqual([422, 1001]);
    }
    const tooMany = Array.from({ length: 51 }, () => randomUUID());
    const big = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: admin.token,
      json: { role_ids: tooMany },
    });
    expect(big.status).toBe(422);
    const denied = await harness.request('PUT', `/admin/users/${plain.id}/roles`, {
      token: reader.token,
      json: { role_ids: [] },
    });
    expect(denied.body.code).toBe(3000);
  });
});

describeRouteSecurity(() => harness, /^\/admin\/users($|\/:id\/)/);
