// GET /admin/permissions, GET and POST /admin/roles, PUT and DELETE /admin/roles/{id} (gateway
// routes/identity-roles-routes.ts): happy paths, errors, bad input and security. A user's roles
// (PUT /admin/users/{id}/roles): admin-users.int.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, roleId as findRoleId, type TestUser } from '../support/rbac-users.js';
import { useIdentityHarness } from '../support/suite.js';
import { describeRouteSecurity } from '../support/route-security.js';

const harness = useIdentityHarness();
let admin: TestUser;
let superuser: TestUser;
let plain: TestUser;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'roleadmin' });
  superuser = await createTestUser(harness, { roles: [], superuser: true, name: 'rolesu' });
  plain = await createTestUser(harness, { name: 'roleuser' });
}, 60_000);

const roleId = (name: string) => findRoleId(harness, name);

describe('GET /admin/permissions and /admin/roles', () => {
  it('lists permission codes and roles, paged', async () => {
    const permissions = await harness.request('GET', '/admin/permissions?page_size=100', {
      token: admin.token,
    });
    expect(permissions.status).toBe(200);
    expect(permissions.body.data.total).toBe(21);
    expect(permissions.body.data.items.map((p: { code: string }) => p.code)).toContain('admin:roles:manage');
    const firstPage = await harness.request('GET', '/admin/permissions?page=2&page_size=20', {
      token: admin.token,
    });
    expect(firstPage.body.data).toMatchObject({ page: 2, page_size: 20 });
    expect(firstPage.body.data.items).toHaveLength(1);

    const roles = await harness.request('GET', '/admin/roles', { token: admin.token });
    expect(roles.body.data.total).toBeGreaterThanOrEqual(3);
    const byName = Object.fromEntries(roles.body.data.items.map((r: { name: string }) => [r.name, r]));
    expect(byName['Super Admin']).toMatchObject({ is_system: true, permissions: ['*'] });
    expect(byName.User).toMatchObject({ is_system: true, is_default: true });
    expect(byName.Admin.user_count).toBeGreaterThanOrEqual(1);
  });

  it('needs admin:users:read (403/3000) and a token (401/2000)', async () => {
    expect((await harness.request('GET', '/admin/roles', { token: plain.token })).body.code).toBe(3000);
    expect((await harness.request('GET', '/admin/permissions', { token: plain.token })).status).toBe(403);
    expect((await harness.request('GET', '/admin/roles')).body.code).toBe(2000);
  });

  it('rejects paging out of range', async () => {
    for (const query of ['page=0', 'page_size=0', 'page_size=101', 'page=abc', 'page_size=1.5']) {
      const res = await harness.request('GET', `/admin/roles?${query}`, { token: admin.token });
      expect([res.status, res.body.code], query).toEqual([422, 1001]);
    }
    const res = await harness.request('GET', '/admin/permissions?page_size=500', { token: admin.token });
    expect(res.body.data.errors).toHaveProperty('page_size');
  });
});

describe('POST /admin/roles', () => {
  it('creates a role with permissions and audits it', async () => {
    const res = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'Auditor', description: 'reads', permissions: ['admin:users:read', 'apikey:read'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Auditor',
      is_system: false,
      is_default: false,
      permissions: ['admin:users:read', 'apikey:read'],
      user_count: 0,
    });
    const { rows } = await harness.identity.dependencies.pool.query(
      `SELECT actor_user_id FROM audit_log WHERE action = 'role.create' AND target_id = $1`,
      [res.body.data.id],
    );
    expect(rows).toEqual([{ actor_user_id: admin.id }]);
  });

  it('5100 when the name exists (case-insensitive)', async () => {
    const res = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'auditor', permissions: [] },
    });
    expect([res.status, res.body.code]).toEqual([400, 5100]);
  });

  it('4003 for unknown permission codes, naming them', async () => {
    const res = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'Ghost', permissions: ['apikey:read', 'nope:nothing'] },
    });
    expect([res.status, res.body.code]).toEqual([404, 4003]);
    expect(res.body.data.unknown_permissions).toEqual(['nope:nothing']);
  });

  it('only a holder of * may create a role granting * (3001)', async () => {
    const denied = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'Everything2', permissions: ['*'] },
    });
    expect([denied.status, denied.body.code]).toEqual([403, 3001]);
    const allowed = await harness.request('POST', '/admin/roles', {
      token: superuser.token,
      json: { name: 'Everything2', permissions: ['*'] },
    });
    expect(allowed.body.code).toBe(0);
  });

  it('needs admin:roles:manage', async () => {
    const res = await harness.request('POST', '/admin/roles', {
      token: plain.token,
      json: { name: 'X', permissions: [] },
    });
    expect([res.status, res.body.code]).toEqual([403, 3000]);
  });

  it('rejects bad bodies', async () => {
    const cases: unknown[] = [
      {},
      { name: '', permissions: [] },
      { name: '   ', permissions: [] },
      { name: 'x'.repeat(101), permissions: [] },
      { name: 'A', permissions: 'apikey:read' },
      { name: 'A', permissions: [1] },
      { name: 'A', permissions: ['Bad Code'] },
      { name: 'A', permissions: Array.from({ length: 101 }, () => 'apikey:read') },
      { name: 'A', description: 'd'.repeat(501), permissions: [] },
      { name: 42, permissions: [] },
    ];
    for (const json of cases) {
      const res = await harness.request('POST', '/admin/roles', { token: admin.token, json });
      expect([res.status, res.body.code], JSON.stringify(json).slice(0, 80)).toEqual([422, 1001]);
    }
  });
});

describe('PUT /admin/roles/{id}', () => {
  it('updates name, description and replaces permissions', async () => {
    const created = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'Editor', permissions: ['workflow:read'] },
    });
    const id = created.body.data.id;
    const res = await harness.request('PUT', `/admin/roles/${id}`, {
      token: admin.token,
      json: { name: 'Editor2', permissions: ['workflow:read', 'workflow:update'] },
    });
    expect(res.body.data).toMatchObject({
      name: 'Editor2',
      permissions: ['workflow:read', 'workflow:update'],
    });
    const cleared = await harness.request('PUT', `/admin/roles/${id}`, {
      token: admin.token,
      json: { permissions: [] },
    });
    expect(cleared.body.data.permissions).toEqual([]);
    const described = await harness.request('PUT', `/admin/roles/${id}`, {
      token: admin.token,
      json: { description: 'edits' },
    });
    expect(described.body.data).toMatchObject({ name: 'Editor2', description: 'edits' });
  });

  it('5204 for system roles, 4002 for unknown ids, 5100 for a taken name, 4003 for unknown codes', async () => {
    const system = await harness.request('PUT', `/admin/roles/${await roleId('User')}`, {
      token: admin.token,
      json: { description: 'changed' },
    });
    expect([system.status, system.body.code]).toEqual([400, 5204]);
    const missing = await harness.request('PUT', '/admin/roles/00000000-0000-4000-8000-000000000000', {
      token: admin.token,
      json: { description: 'x' },
    });
    expect([missing.status, missing.body.code]).toEqual([404, 4002]);
    const id = await roleId('Editor2');
    const taken = await harness.request('PUT', `/admin/roles/${id}`, {
      token: admin.token,
      json: { name: 'Admin' },
    });
    expect(taken.body.code).toBe(5100);
    const unknown = await harness.request('PUT', `/admin/roles/${id}`, {
      token: admin.token,
      json: { permissions: ['made:up'] },
    });
    expect(unknown.body.code).toBe(4003);
  });

  it('rejects bad params and bodies', async () => {
    const id = await roleId('Editor2');
    const badId = await harness.request('PUT', '/admin/roles/not-a-uuid', {
      token: admin.token,
      json: { name: 'a' },
    });
    expect([badId.status, badId.body.code]).toEqual([422, 1001]);
    expect(badId.body.data.errors).toHaveProperty('id');
    for (const json of [{}, { name: '' }, { permissions: 'x' }, { description: 5 }]) {
      const res = await harness.request('PUT', `/admin/roles/${id}`, { token: admin.token, json });
      expect([res.status, res.body.code], JSON.stringify(json)).toEqual([422, 1001]);
    }
    const denied = await harness.request('PUT', `/admin/roles/${id}`, {
      token: plain.token,
      json: { name: 'a' },
    });
    expect(denied.body.code).toBe(3000);
  });
});

describe('DELETE /admin/roles/{id}', () => {
  it('deletes an unused custom role', async () => {
    const created = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'Temp', permissions: [] },
    });
    const res = await harness.request('DELETE', `/admin/roles/${created.body.data.id}`, {
      token: admin.token,
    });
    expect(res.body).toMatchObject({ code: 0, data: { id: created.body.data.id } });
    const again = await harness.request('DELETE', `/admin/roles/${created.body.data.id}`, {
      token: admin.token,
    });
    expect([again.status, again.body.code]).toEqual([404, 4002]);
  });

  it('5200 for system roles and 5211 for a role in use', async () => {
    const system = await harness.request('DELETE', `/admin/roles/${await roleId('Admin')}`, {
      token: admin.token,
    });
    expect([system.status, system.body.code]).toEqual([400, 5200]);
    const created = await harness.request('POST', '/admin/roles', {
      token: admin.token,
      json: { name: 'InUse', permissions: ['apikey:read'] },
    });
    await createTestUser(harness, { roles: ['InUse'] });
    const res = await harness.request('DELETE', `/admin/roles/${created.body.data.id}`, {
      token: admin.token,
    });
    expect([res.status, res.body.code]).toEqual([400, 5211]);
    expect(res.body.data.user_count).toBe(1);
  });

  it('rejects a malformed id and callers without admin:roles:manage', async () => {
    const bad = await harness.request('DELETE', '/admin/roles/123', { token: admin.token });
    expect([bad.status, bad.body.code]).toEqual([422, 1001]);
    const denied = await harness.request('DELETE', `/admin/roles/${await roleId('InUse')}`, {
      token: plain.token,
    });
    expect([denied.status, denied.body.code]).toEqual([403, 3000]);
  });
});

describeRouteSecurity(() => harness, /^\/admin\/(roles|permissions)/);
