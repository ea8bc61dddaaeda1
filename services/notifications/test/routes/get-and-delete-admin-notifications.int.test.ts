// GET /admin/notifications and DELETE /admin/notifications/{id} (gateway
// routes/notifications-admin-routes.ts), one describe block per route and concern: the happy
// path, the errors and bad input, and the security cases. POST: post-admin-notifications.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type AdminCast } from '../support/admin-cast.js';
import { useAdminSuite } from '../support/admin-suite.js';
import type { NotificationsHarness } from '../support/harness.js';
import { seedNotifications } from '../support/seed.js';

let h: NotificationsHarness;
let { superuser, admin, plain, teamAdmin, teamMember, teamId } = {} as AdminCast;
useAdminSuite((started, cast) => {
  ({ h, superuser, admin, plain, teamAdmin, teamMember, teamId } = { h: started, ...cast });
});

describe('GET /admin/notifications', () => {
  let teamNote: string;
  beforeAll(async () => {
    const docs = await seedNotifications(h.notifications, [
      { scope: 'team', team_id: teamId, title: 'listed team', level: 'low' },
      { scope: 'global', title: 'listed global', level: 'high' },
      { scope: 'global', title: 'listed expired', expires_at: new Date(Date.now() - 60_000) },
    ]);
    teamNote = docs[0]!._id;
  });

  it('global admins see every scope with filters; is_read false, read_at null', async () => {
    await h.request('POST', '/notifications/read', { token: admin.token, json: { mark_all: true } });
    const all = await h.request('GET', '/admin/notifications?search=listed', { token: admin.token });
    expect(all.body.data.items.map((item: { title: string }) => item.title)).toEqual([
      'listed global',
      'listed team',
    ]);
    expect(
      all.body.data.items.every(
        (item: { is_read: boolean; read_at: null }) => !item.is_read && item.read_at === null,
      ),
    ).toBe(true);
    const expired = await h.request('GET', '/admin/notifications?search=listed&include_expired=true', {
      token: admin.token,
    });
    expect(expired.body.data.total).toBe(3);
    const filtered = await h.request(
      'GET',
      '/admin/notifications?search=listed&scope=team&scope=user&level=low&level=medium',
      {
        token: admin.token,
      },
    );
    expect(filtered.body.data.items.map((item: { id: string }) => item.id)).toEqual([teamNote]);
  });

  it("a team admin's scope stays team: another manager's user notifications of the team stay hidden", async () => {
    // A message to one manager that names the team (models' grant notices carry it; stored here as
    // is, so the rule cannot lean on how a writer normalizes it).
    const [managerNote] = await seedNotifications(h.notifications, [
      { scope: 'user', user_id: admin.id, title: 'for one manager only' },
    ]);
    await h.notifications.dependencies.models.notifications.updateOne(
      { _id: managerNote!._id },
      { $set: { team_id: teamId } },
    );
    for (const query of ['scope=user', 'scope=user&scope=team', 'scope=team', '']) {
      const listed = await h.request('GET', `/admin/notifications?team_id=${teamId}&${query}`, {
        token: teamAdmin.token,
      });
      expect(listed.body.code, query).toBe(0);
      const ids = listed.body.data.items.map((item: { id: string }) => item.id);
      expect(ids, query).not.toContain(managerNote!._id);
      expect(
        listed.body.data.items.every((item: { scope: string }) => item.scope === 'team'),
        query,
      ).toBe(true);
    }
    // A global admin still finds it.
    const global = await h.request('GET', `/admin/notifications?team_id=${teamId}&scope=user`, {
      token: admin.token,
    });
    expect(global.body.data.items.map((item: { id: string }) => item.id)).toContain(managerNote!._id);
  });

  it('non-global callers: 3001 for global, 1002 without team_id, 3003 not admin, 4004 unknown team', async () => {
    expectError(
      await h.request('GET', `/admin/notifications?team_id=${teamId}&scope=global`, {
        token: teamAdmin.token,
      }),
      403,
      3001,
    );
    expectError(
      await h.request('GET', '/admin/notifications', { token: teamAdmin.token }),
      400,
      1002,
      'notification_scope_requires_team',
    );
    expectError(
      await h.request('GET', `/admin/notifications?team_id=${teamId}`, { token: teamMember.token }),
      403,
      3003,
      'team_admin_required',
    );
    expectError(
      await h.request('GET', `/admin/notifications?team_id=${randomUUID()}`, { token: teamAdmin.token }),
      404,
      4004,
    );
    const own = await h.request('GET', `/admin/notifications?team_id=${teamId}&search=listed`, {
      token: teamAdmin.token,
    });
    expect(own.body.data.items.map((item: { id: string }) => item.id)).toEqual([teamNote]);
  });
});

describe('GET /admin/notifications: bad input', () => {
  it.each([
    ['GET', '/admin/notifications?page_size=101'],
    ['GET', '/admin/notifications?scope=global&scope=planet'],
    ['GET', '/admin/notifications?level=low&level=urgent'],
    ['GET', '/admin/notifications?team_id=not-a-uuid'],
    ['GET', '/admin/notifications?user_id=me'],
    ['GET', '/admin/notifications?include_expired=yes'],
    ['GET', '/admin/notifications?page=-1'],
  ])('%s %s', async (method, path) => {
    const response = await h.request(method, path, { token: superuser.token });
    expect([response.status, response.body.code]).toEqual([422, 1001]);
    expect(Object.keys(response.body.data.errors).length).toBeGreaterThan(0);
  });
});

describe('GET /admin/notifications: security', () => {
  it('no token → 401 / 2000', async () => {
    expectError(await h.request('GET', '/admin/notifications'), 401, 2000);
  });
});

describe('DELETE /admin/notifications/{id}', () => {
  it('deletes after writing the audit record; answers {id}', async () => {
    const [doc] = await seedNotifications(h.notifications, [
      { scope: 'team', team_id: teamId, title: 'to delete' },
    ]);
    await h.request('POST', '/notifications/read', {
      token: teamMember.token,
      json: { notification_ids: [doc!._id] },
    });
    expectError(
      await h.request('DELETE', `/admin/notifications/${doc!._id}`, { token: teamMember.token }),
      403,
      3003,
    );
    const response = await h.request('DELETE', `/admin/notifications/${doc!._id}`, {
      token: teamAdmin.token,
      headers: { 'user-agent': 'audit-test' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: doc!._id });
    const { models } = h.notifications.dependencies;
    expect(await models.notifications.countDocuments({ _id: doc!._id })).toBe(0);
    expect(await models.reads.countDocuments({ notification_id: doc!._id })).toBe(0);
    const audit = await models.audit.findOne({ notification_id: doc!._id }).lean();
    expect(audit).toMatchObject({
      action: 'notification.delete',
      actor_user_id: teamAdmin.id,
      user_agent: 'audit-test',
      snapshot: { id: doc!._id, title: 'to delete', scope: 'team', team_id: teamId },
    });
    expect(audit!.ip).not.toBe('');
    expectError(
      await h.request('DELETE', `/admin/notifications/${doc!._id}`, { token: teamAdmin.token }),
      404,
      4000,
      'notification_not_found',
    );
  });

  it('global and user notifications need a global admin (3001)', async () => {
    const [global, user] = await seedNotifications(h.notifications, [
      { scope: 'global', title: 'g del' },
      { scope: 'user', user_id: teamAdmin.id, title: 'u del' },
    ]);
    expectError(
      await h.request('DELETE', `/admin/notifications/${global!._id}`, { token: teamAdmin.token }),
      403,
      3001,
    );
    expectError(
      await h.request('DELETE', `/admin/notifications/${user!._id}`, { token: teamAdmin.token }),
      403,
      3001,
    );
    expect(
      (await h.request('DELETE', `/admin/notifications/${global!._id}`, { token: admin.token })).body.code,
    ).toBe(0);
    expectError(
      await h.request('DELETE', `/admin/notifications/${randomUUID()}`, { token: admin.token }),
      404,
      4000,
    );
    // House rule for malformed path parameters: 422 / 1001 naming the parameter.
    expectError(
      await h.request('DELETE', '/admin/notifications/not-a-uuid', { token: admin.token }),
      422,
      1001,
    );
  });

  it('a failed audit write means no delete', async () => {
    const [doc] = await seedNotifications(h.notifications, [{ scope: 'global', title: 'audit fails' }]);
    const audit = h.notifications.dependencies.models.audit.collection;
    // A unique index the real audit insert collides with, so the audit write fails for this id.
    await audit.createIndex({ notification_id: 1, action: 1 }, { unique: true, name: 'test_audit_blocker' });
    await audit.insertOne({
      _id: randomUUID() as never,
      action: 'notification.delete',
      notification_id: doc!._id,
    });
    try {
      const response = await h.request('DELETE', `/admin/notifications/${doc!._id}`, { token: admin.token });
      expect(response.status).toBe(500);
      expect(response.body.code).toBe(1003);
      expect(await h.notifications.dependencies.models.notifications.countDocuments({ _id: doc!._id })).toBe(
        1,
      );
    } finally {
      await audit.dropIndex('test_audit_blocker');
    }
  });
});

describe('DELETE /admin/notifications/{id}: security', () => {
  it('no token → 401 / 2000; a user without admin:notification:delete → 403 / 3000; nothing deleted', async () => {
    const [doc] = await seedNotifications(h.notifications, [{ scope: 'global', title: 'kept' }]);
    expectError(await h.request('DELETE', `/admin/notifications/${doc!._id}`), 401, 2000);
    expectError(
      await h.request('DELETE', `/admin/notifications/${doc!._id}`, { token: plain.token }),
      403,
      3000,
    );
    expect(await h.notifications.dependencies.models.notifications.countDocuments({ _id: doc!._id })).toBe(1);
  });
});
