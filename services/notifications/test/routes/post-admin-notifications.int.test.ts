// POST /admin/notifications (gateway routes/notifications-admin-routes.ts): the happy path, the
// errors and bad input, and the security cases. GET and DELETE: get-and-delete-admin-notifications.
import { waitUntil, type IdentityUser } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, type AdminCast } from '../support/admin-cast.js';
import { useAdminSuite } from '../support/admin-suite.js';
import type { NotificationsHarness } from '../support/harness.js';
import { enableSlackChannel } from '../support/slack-channel.js';

let h: NotificationsHarness;
let { superuser, admin, plain, teamAdmin, teamMember, teamId } = {} as AdminCast;
useAdminSuite((started, cast) => {
  ({ h, superuser, admin, plain, teamAdmin, teamMember, teamId } = { h: started, ...cast });
});

const create = (user: IdentityUser, json: Record<string, unknown>) =>
  h.request('POST', '/admin/notifications', {
    token: user.token,
    json: { type: 'test.admin', title: 't', content: 'c', ...json },
  });

describe('POST /admin/notifications', () => {
  it('creates a global notification (superuser) with its fields and no deliveries', async () => {
    // The fields sent come back as they were (the same literal, so it is written once).
    const sent = {
      scope: 'global',
      title: 'Hello all',
      level: 'high',
      source: 'biz',
      data: { a: 1, nested: { b: [true] } },
      link_url: '/inbox',
    };
    const response = await create(superuser, sent);
    expect(response.status).toBe(200);
    expect(response.body.msg).toBe('Notification created');
    expect(response.body.data).toMatchObject({
      ...sent,
      team_id: null,
      user_id: null,
      status: 'active',
      is_read: false,
      read_at: null,
      deliveries: [],
    });
    const seen = await h.request('GET', '/notifications', { token: plain.token });
    expect(seen.body.data.items.map((item: { id: string }) => item.id)).toContain(response.body.data.id);
  });

  it('scope rules: global needs a superuser (3001); team needs team_id (1002); user needs a user (1002)', async () => {
    expectError(await create(admin, { scope: 'global' }), 403, 3001);
    expectError(await create(admin, { scope: 'team' }), 400, 1002, 'notification_scope_requires_team');
    expectError(await create(admin, { scope: 'user' }), 400, 1002, 'notification_scope_requires_user');
    expectError(await create(plain, { scope: 'global' }), 403, 3000);
  });

  it('team scope: OWNER/ADMIN of the team only (3003), an unknown team is 4004', async () => {
    const ok = await create(teamAdmin, { scope: 'team', team_id: teamId, title: 'team note' });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({ scope: 'team', team_id: teamId, user_id: null });
    expectError(
      await create(teamMember, { scope: 'team', team_id: teamId }),
      403,
      3003,
      'team_admin_required',
    );
    expectError(await create(admin, { scope: 'team', team_id: randomUUID() }), 404, 4004);
    const memberView = await h.request('GET', '/notifications?scope=team', { token: teamMember.token });
    expect(memberView.body.data.items.map((item: { id: string }) => item.id)).toEqual([ok.body.data.id]);
  });

  it('a user_ids batch creates one per user, returns the first, says how many', async () => {
    const users = await Promise.all([1, 2, 3].map(() => h.createUser({ name: 'batch' })));
    const response = await create(admin, {
      scope: 'user',
      user_ids: [...users.map((user) => user.id), users[0]!.id],
      title: 'batch note',
    });
    expect(response.body.code).toBe(0);
    expect(response.body.msg).toBe('3 notifications created');
    expect(response.body.data).toMatchObject({ scope: 'user', user_id: users[0]!.id });
    for (const user of users) {
      const mine = await h.request('GET', '/notifications?scope=user', { token: user.token });
      expect(mine.body.data.items.map((item: { title: string }) => item.title)).toEqual(['batch note']);
    }
  });

  it('an unknown user in user_ids is 4001 and creates nothing', async () => {
    const known = await h.createUser({ name: 'known' });
    expectError(
      await create(admin, { scope: 'user', user_ids: [known.id, randomUUID()], title: 'nope' }),
      404,
      4001,
    );
    expectError(await create(admin, { scope: 'user', user_id: randomUUID(), title: 'nope' }), 404, 4001);
    expect(await h.notifications.dependencies.models.notifications.countDocuments({ title: 'nope' })).toBe(0);
  });

  it('every notify_channels entry is checked before anything is created', async () => {
    const refused = await create(superuser, {
      scope: 'global',
      title: 'with email',
      notify_channels: ['slack', 'email'],
    });
    expectError(refused, 400, 1002, 'slack_not_enabled');
    expectError(
      await create(admin, { scope: 'user', user_id: plain.id, notify_channels: ['fax'] }),
      422,
      1001,
    );
    expect(
      await h.notifications.dependencies.models.notifications.countDocuments({ title: 'with email' }),
    ).toBe(0);
  });

  it('creates deliveries pending for an enabled channel; the admin list shows them', async () => {
    await enableSlackChannel(h, superuser.token);
    // Settings are read through a short cache: the change applies within its lifetime.
    const created = await waitUntil(
      async () => {
        const answer = await create(admin, {
          scope: 'user',
          user_id: plain.id,
          title: 'to slack',
          notify_channels: ['slack'],
        });
        return answer.body.code === 0 ? answer : undefined;
      },
      15_000,
      'slack never became deliverable',
    );
    expect(created.body.data.deliveries).toEqual([
      expect.objectContaining({
        channel: 'slack',
        status: 'pending',
        retry_count: 0,
        sent_at: null,
        error_message: null,
      }),
    ]);
    const listed = await h.request('GET', '/admin/notifications?search=to%20slack', { token: admin.token });
    expect(listed.body.data.items).toHaveLength(1);
    expect(listed.body.data.items[0].deliveries).toHaveLength(1);
    expect(listed.body.data.items[0].deliveries[0].channel).toBe('slack');
  });

  it('refuses malformed bodies with 422 / 1001', async () => {
    for (const json of [
      { scope: 'planet' },
      { scope: 'global', title: '' },
      { scope: 'global', type: 'x'.repeat(101) },
      { scope: 'global', title: 'x'.repeat(256) },
      { scope: 'global', link_url: 'x'.repeat(501) },
      { scope: 'user', user_ids: ['not-a-uuid'] },
      { scope: 'global', expires_at: 'tomorrow' },
      { scope: 'global', unknown_field: 1 },
    ]) {
      expectError(await create(superuser, json), 422, 1001);
    }
  });

  it('link_url: only http(s) or a path; script and data schemes refused in any case, after spaces too', async () => {
    const create = (link_url: string) =>
      h.request('POST', '/admin/notifications', {
        token: superuser.token,
        json: { scope: 'global', type: 'test.link', title: 'link', content: 'c', link_url },
      });
    const refused = await Promise.all(
      [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        '  javascript:alert(1)',
        '\tjavascript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
        ' DATA:text/html,x',
        'vbscript:msgbox(1)',
        'VBScript:msgbox(1)',
        '//evil.example/path',
        '/\\evil.example',
        'file:///etc/passwd',
        'https:evil',
      ].map(create),
    );
    for (const response of refused) {
      expect([response.status, response.body.code]).toEqual([422, 1001]);
      expect(Object.keys(response.body.data.errors)).toEqual(['link_url']);
    }
    for (const link of ['https://example.com/a?b=c#d', 'HTTP://example.com', '/workflows/w/runs/r', '']) {
      const created = await create(link);
      expect(created.body.code, link).toBe(0);
      expect(created.body.data.link_url).toBe(link || null);
    }
  });

  it('a body that is not JSON is refused with an envelope, never a 5xx', async () => {
    const raw = await h.request('POST', '/admin/notifications', {
      token: superuser.token,
      raw: { body: '{"scope":', contentType: 'application/json' },
    });
    expect(raw.status).toBeLessThan(500);
    expect(raw.body.code).not.toBe(0);
  });
});

describe('POST /admin/notifications: security', () => {
  it('no token → 401 / 2000; a user without admin:notification:create → 403 / 3000; nothing created', async () => {
    const title = `unauthorised ${randomUUID()}`;
    expectError(
      await h.request('POST', '/admin/notifications', {
        json: { scope: 'global', type: 'test.admin', title, content: 'c' },
      }),
      401,
      2000,
    );
    expectError(await create(plain, { scope: 'global', title }), 403, 3000);
    expect(await h.notifications.dependencies.models.notifications.countDocuments({ title })).toBe(0);
  });
});
