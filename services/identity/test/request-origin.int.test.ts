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

const loopback = /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/;

/** Sends the request with a unique User-Agent; the newest `action` row of `actor` must carry it. */
async function expectOriginAudited(
  actor: TestUser,
  action: string,
  request: { method: string; path: string; json?: unknown },
): Promise<void> {
  const agent = `origin-test/${randomUUID()}`;
  const res = await harness.request(request.method, request.path, {
    token: actor.token,
    json: request.json,
    headers: { 'user-agent': agent },
  });
  expect(res.body.code).toBe(0);
  const row = await auditOrigin(action, actor.id);
  expect(row?.user_agent).toBe(agent);
  expect(row?.ip).toMatch(loopback);
}

describe('request origin reaches the audit log', () => {
  it('settings (PUT /admin/site-settings)', async () => {
    const json = { allow_registration: true };
    await expectOriginAudited(superuser, 'settings.update', {
      method: 'PUT',
      path: '/admin/site-settings',
      json,
    });
  });

  it('roles (POST /admin/roles)', async () => {
    const json = { name: `Origin ${randomUUID()}`, permissions: [] };
    await expectOriginAudited(superuser, 'role.create', { method: 'POST', path: '/admin/roles', json });
  });

  it('admin users (POST /admin/users/{id}/approve)', async () => {
    const pending = await createTestUser(harness, { approvalStatus: 'pending', name: 'originpending' });
    await expectOriginAudited(admin, 'user.approve', {
      method: 'POST',
      path: `/admin/users/${pending.id}/approve`,
    });
  });

  it('TOTP (POST /totp/setup)', async () => {
    const user = await createTestUser(harness, { name: 'origintotp' });
    await expectOriginAudited(user, 'totp.setup_started', { method: 'POST', path: '/totp/setup' });
  });
});
