import type { IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';
import { seedNotifications } from './support/seed.js';

let h: NotificationsHarness;
let alice: IdentityUser;
let bob: IdentityUser;
let teamId: string;
let otherTeamId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startNotificationsHarness();
  alice = await h.createUser({ name: 'alice' });
  bob = await h.createUser({ name: 'bob' });
  const owner = await h.createUser({ name: 'owner' });
  teamId = await h.createTeam(owner, [{ user: alice }]);
  otherTeamId = await h.createTeam(owner, [{ user: bob }]);
  const hour = 3_600_000;
  const docs = await seedNotifications(h.notifications, [
    { scope: 'global', title: 'Maintenance (a+b) tonight', type: 'system.maintenance', level: 'high' },
    { scope: 'team', team_id: teamId, title: 'Team news', content: 'A new MODEL is available' },
    { scope: 'team', team_id: otherTeamId, title: 'Other team news' },
    { scope: 'user', user_id: alice.id, title: 'For alice aab', level: 'low' },
    { scope: 'user', user_id: bob.id, title: 'For bob' },
    { scope: 'global', title: 'Expired', expires_at: new Date(Date.now() - hour) },
    { scope: 'global', title: 'Expires later', expires_at: new Date(Date.now() + hour) },
  ]);
  for (const doc of docs) ids[doc.title] = doc._id;
});

afterAll(async () => {
  await h?.stop();
});

const list = (user: IdentityUser, query = '') =>
  h.request('GET', `/notifications${query}`, { token: user.token });
const titles = (body: { data: { items: { title: string }[] } }) => body.data.items.map((item) => item.title);

describe('GET /notifications', () => {
  it('shows global, own and own-team notifications, unexpired, newest first', async () => {
    const response = await list(alice);
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual([
      'Expires later',
      'For alice aab',
      'Team news',
      'Maintenance (a+b) tonight',
    ]);
    expect(response.body.data).toMatchObject({ total: 4, page: 1, page_size: 20 });
    const item = response.body.data.items[1];
    expect(item).toMatchObject({
      scope: 'user',
      user_id: alice.id,
      team_id: null,
      source: 'system',
      status: 'active',
      is_read: false,
      read_at: null,
      deliveries: [],
      data: null,
      link_url: null,
    });
  });

  it('applies scope, type, level and created_from/created_to', async () => {
    expect(titles((await list(alice, '?scope=team')).body)).toEqual(['Team news']);
    expect(titles((await list(alice, '?scope=user')).body)).toEqual(['For alice aab']);
    expect(titles((await list(alice, '?type=system.maintenance')).body)).toEqual([
      'Maintenance (a+b) tonight',
    ]);
    expect(titles((await list(alice, '?level=low')).body)).toEqual(['For alice aab']);
    const all = (await list(alice)).body.data.items as { title: string; created_at: string }[];
    const teamNews = all.find((item) => item.title === 'Team news')!;
    const from = encodeURIComponent(teamNews.created_at);
    expect(titles((await list(alice, `?created_from=${from}`)).body)).toEqual([
      'Expires later',
      'For alice aab',
      'Team news',
    ]);
    expect(titles((await list(alice, `?created_to=${from}`)).body)).toEqual([
      'Team news',
      'Maintenance (a+b) tonight',
    ]);
  });

  it('searches title, content and type case-insensitively, regex characters literally', async () => {
    expect(titles((await list(alice, `?search=${encodeURIComponent('a+b')}`)).body)).toEqual([
      'Maintenance (a+b) tonight',
    ]);
    expect(titles((await list(alice, '?search=model')).body)).toEqual(['Team news']);
    expect(titles((await list(alice, '?search=SYSTEM.MAINT')).body)).toEqual(['Maintenance (a+b) tonight']);
    expect((await list(alice, `?search=${encodeURIComponent('.*')}`)).body.data.total).toBe(0);
  });

  it('pages 1-100; out of range is 422 / 1001', async () => {
    const second = await list(alice, '?page=2&page_size=3');
    expect(titles(second.body)).toEqual(['Maintenance (a+b) tonight']);
    expect(second.body.data).toMatchObject({ total: 4, page: 2, page_size: 3 });
    for (const query of ['?page_size=0', '?page_size=101', '?page=0', '?page=x']) {
      const bad = await list(alice, query);
      expect([bad.status, bad.body.code], query).toEqual([422, 1001]);
    }
  });

  it('other users see their own set', async () => {
    expect(titles((await list(bob)).body)).toEqual([
      'Expires later',
      'For bob',
      'Other team news',
      'Maintenance (a+b) tonight',
    ]);
  });
});

describe('unread count and mark read', () => {
  it('counts, marks (expired included, invisible ignored), and counts only new read records', async () => {
    const user = await h.createUser({ name: 'reader' });
    const count = async () =>
      (await h.request('GET', '/notifications/unread-count', { token: user.token })).body;
    expect(await count()).toMatchObject({ code: 0, data: { total: 2 } });

    const mark = (json: unknown) => h.request('POST', '/notifications/read', { token: user.token, json });
    const first = await mark({
      notification_ids: [ids['Maintenance (a+b) tonight'], ids['Expired'], ids['For bob']],
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ updated: 2 });
    expect((await count()).data.total).toBe(1);
    expect((await mark({ notification_ids: [ids['Maintenance (a+b) tonight']] })).body.data).toEqual({
      updated: 0,
    });

    const items = (await list(user)).body.data.items as {
      title: string;
      is_read: boolean;
      read_at: string | null;
    }[];
    const read = items.find((item) => item.title === 'Maintenance (a+b) tonight')!;
    expect(read.is_read).toBe(true);
    expect(Date.parse(read.read_at!)).not.toBeNaN();
    expect(titles((await list(user, '?unread_only=true')).body)).toEqual(['Expires later']);

    expect((await mark({ mark_all: true })).body.data).toEqual({ updated: 1 });
    expect((await count()).data.total).toBe(0);
    expect((await list(user, '?unread_only=true')).body.data.total).toBe(0);
  });

  it('neither notification_ids nor mark_all is 400 / 1002 validation_error', async () => {
    for (const json of [{}, { mark_all: false }, { notification_ids: [] }]) {
      const response = await h.request('POST', '/notifications/read', { token: alice.token, json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(response.body.code).toBe(1002);
      expect(response.body.data.error_key).toBe('validation_error');
    }
    const malformed = await h.request('POST', '/notifications/read', {
      token: alice.token,
      json: { notification_ids: ['not-a-uuid'] },
    });
    expect([malformed.status, malformed.body.code]).toEqual([422, 1001]);
  });

  it('a parallel burst of mark-all creates one read record per notification', async () => {
    const user = await h.createUser({ name: 'burst' });
    await seedNotifications(
      h.notifications,
      Array.from({ length: 30 }, (_, index) => ({
        scope: 'user' as const,
        user_id: user.id,
        title: `b${index}`,
      })),
    );
    const before = (await h.request('GET', '/notifications/unread-count', { token: user.token })).body.data
      .total;
    expect(before).toBe(32);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.request('POST', '/notifications/read', { token: user.token, json: { mark_all: true } }),
      ),
    );
    expect(answers.every((answer) => answer.body.code === 0)).toBe(true);
    // Marking covers expired notifications too: 32 unread plus the expired global one.
    expect(answers.reduce((sum, answer) => sum + (answer.body.data.updated as number), 0)).toBe(33);
    expect(await h.notifications.dependencies.models.reads.countDocuments({ user_id: user.id })).toBe(33);
    expect(
      (await h.request('GET', '/notifications/unread-count', { token: user.token })).body.data.total,
    ).toBe(0);
  });
});
