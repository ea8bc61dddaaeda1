import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';

// Every audited request carries `platform.common.v1.RequestOrigin` from the gateway to identity;
// these check the audit row of one route per request family records the caller's IP and agent.
const harness = useIdentityHarness();
let admin: TestUser;
let superuser: TestUser;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'originadmin' });
  superuser = await createTestUser(harness, { roles: ['Super Admin'], superuser: true, name: 'originsuper' });
}, 60_000);

async function auditOrigin(action: string, actorUserId: string) {
  const { rows } = await harness.identity.dependencies.pool.query<{
    ip: string | null;
    user_agent: string | null;
  }>(
    `SELECT ip, user_agent FROM audit_log WHERE action = $1 AND actor_user_id = $2
      ORDER BY id DESC LIMIT 1`,
    [action, actorUserId],
  );
  return rows[0];
}

describe('request origin reaches the audit log', () => {
  const loopback = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

  it.each([
    [
      'settings (PUT /admin/site-settings)',
      'settings.update',
      () => ({ method: 'PUT', path: '/admin/site-settings', json: { allow_registration: true } }),
    ],
    [
      'roles (POST /admin/roles)',
      'role.create',
      () => ({
        method: 'POST',
        path: '/admin/roles',
        json: { name: `Origin ${randomUUID()}`, permissions: [] },
      }),
    ],
  ])('%s', async (_title, action, build) => {
    const agent = `origin-test/${randomUUID()}`;
    const { method, path, json } = build();
    const res = await harness.request(method, path, {
      token: superuser.token,
      json,
      headers: { 'user-agent': agent },
    });
    expect(res.body.code).toBe(0);
    const row = await auditOrigin(action, superuser.id);
    expect(row?.user_agent).toBe(agent);
    expect(row?.ip).toMatch(loopback);
  });

  it('admin users (POST /admin/users/{id}/approve)', async () => {
    const pending = await createTestUser(harness, { approvalStatus: 'pending', name: 'originpending' });
    const agent = `origin-test/${randomUUID()}`;
    const res = await harness.request('POST', `/admin/users/${pending.id}/approve`, {
      token: admin.token,
      headers: { 'user-agent': agent },
    });
    expect(res.body.code).toBe(0);
    const row = await auditOrigin('user.approve', admin.id);
    expect(row?.user_agent).toBe(agent);
    expect(row?.ip).toMatch(loopback);
  });

  it('TOTP (POST /totp/setup)', async () => {
    const user = await createTestUser(harness, { name: 'origintotp' });
    const agent = `origin-test/${randomUUID()}`;
    const res = await harness.request('POST', '/totp/setup', {
      token: user.token,
      headers: { 'user-agent': agent },
    });
    expect(res.body.code).toBe(0);
    const row = await auditOrigin('totp.setup_started', user.id);
    expect(row?.user_agent).toBe(agent);
    expect(row?.ip).toMatch(loopback);
  });
});
