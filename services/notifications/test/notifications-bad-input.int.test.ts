import type { IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';

// Bad input on every notification route answers an envelope with the right code, never a 5xx.
// The admin notification routes have theirs in routes/<method>-admin-notifications*.int.test.ts.
let h: NotificationsHarness;
let superuser: IdentityUser;

beforeAll(async () => {
  h = await startNotificationsHarness();
  superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
});

afterAll(async () => {
  await h?.stop();
});

describe('422 / 1001 on malformed input', () => {
  it('a page deeper than page × page_size 10,000 is 422 / 1001 on page with data.limit, at once', async () => {
    const started = Date.now();
    const deep = await Promise.all(
      [
        '/notifications?page=1000000&page_size=100',
        '/notifications?page=101&page_size=100',
        '/notifications?page=1000000&search=x',
        '/admin/notifications?page=1000000&page_size=100',
        '/admin/notifications?page=501',
      ].map((path) => h.request('GET', path, { token: superuser.token })),
    );
    for (const response of deep) {
      expect([response.status, response.body.code]).toEqual([422, 1001]);
      expect(Object.keys(response.body.data.errors)).toEqual(['page']);
      expect(response.body.data.limit).toBe(10_000);
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const path of ['/notifications?page=100&page_size=100', '/admin/notifications?page=500']) {
      const last = await h.request('GET', path, { token: superuser.token });
      expect(last.body.code, path).toBe(0);
    }
  });

  it.each([
    ['GET', '/notifications?scope=planet'],
    ['GET', '/notifications?level=urgent'],
    ['GET', '/notifications?unread_only=maybe'],
    ['GET', '/notifications?created_from=yesterday'],
    ['GET', '/notifications?created_to=2026-13-01'],
    ['GET', `/notifications?search=${'s'.repeat(256)}`],
    ['GET', `/notifications?type=${'t'.repeat(101)}`],
  ])('%s %s', async (method, path) => {
    const response = await h.request(method, path, { token: superuser.token });
    expect([response.status, response.body.code]).toEqual([422, 1001]);
    expect(Object.keys(response.body.data.errors).length).toBeGreaterThan(0);
  });

  it.each([
    ['/notifications/read', { mark_all: 'yes' }],
    ['/notifications/read', { notification_ids: 'abc' }],
    ['/notifications/read', { notification_ids: [], extra: true }],
    [
      '/notifications/read',
      { notification_ids: Array.from({ length: 1001 }, () => '00000000-0000-4000-8000-000000000000') },
    ],
  ])('POST %s %j', async (path, json) => {
    const response = await h.request('POST', path, { token: superuser.token, json });
    expect([response.status, response.body.code]).toEqual([422, 1001]);
  });

  it.each([
    [{ channels: 'slack' }],
    [{ channels: ['slack', 'pigeon'] }],
    [{ enabled_types: [1] }],
    [{ enabled_types: ['x'.repeat(101)] }],
    [{ enabled: true }],
  ])('PUT /admin/site-settings/auto-notifications %j', async (json) => {
    const response = await h.request('PUT', '/admin/site-settings/auto-notifications', {
      token: superuser.token,
      json,
    });
    expect([response.status, response.body.code]).toEqual([422, 1001]);
  });

  it('non-JSON bodies and wrong content types', async () => {
    const text = await h.request('POST', '/admin/users/send-email', {
      token: superuser.token,
      raw: { body: 'hello', contentType: 'text/plain' },
    });
    expect([text.status, text.body.code]).toEqual([415, 1002]);
  });
});
