import type { notificationEventsV1 } from '@platform/contracts';
import { waitUntil, type IdentityUser } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationEventsTopic } from '../src/events/notification-events-consumer.js';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';
import { enableSlackChannel } from './support/slack-channel.js';

let h: NotificationsHarness;
let superuser: IdentityUser;
let plain: IdentityUser;

beforeAll(async () => {
  h = await startNotificationsHarness();
  superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  plain = await h.createUser({ name: 'plain' });
  await h.notifications.eventsReady;
});

afterAll(async () => {
  await h?.stop();
});

const config = (token: string) => h.request('GET', '/admin/site-settings/auto-notifications', { token });
const putConfig = (json: unknown) =>
  h.request('PUT', '/admin/site-settings/auto-notifications', { token: superuser.token, json });

function event(
  type: string,
  userId: string,
  overrides: Partial<notificationEventsV1.NotificationEvent> = {},
) {
  return {
    id: randomUUID(),
    type,
    scope: 'user',
    team_id: '',
    user_id: userId,
    title: `auto ${type}`,
    content: 'something happened',
    level: 'high',
    data: { source: 'test' },
    link_url: '',
    occurred_at: new Date().toISOString(),
    source_service: 'test',
    ...overrides,
  };
}

async function publish(value: ReturnType<typeof event>): Promise<void> {
  await h.notifications.dependencies.producer.publish(notificationEventsTopic(h.topicPrefix), {
    key: value.user_id,
    value,
    id: value.id,
  });
}

const countFor = (userId: string, type: string) =>
  h.notifications.dependencies.models.notifications.countDocuments({ user_id: userId, type });

describe('automatic-notification configuration', () => {
  it('defaults to in-app only with the 19 default types', async () => {
    const response = await config(superuser.token);
    expect(response.status).toBe(200);
    expect(response.body.data.channels).toEqual([]);
    expect(response.body.data.enabled_types).toHaveLength(19);
    expect(response.body.data.enabled_types).toContain('security.login_anomaly');
    for (const off of [
      'workflow.run_success',
      'agent.published',
      'agent.unpublished',
      'password.expiring',
      'password.expired',
      'password.force_change',
    ]) {
      expect(response.body.data.enabled_types).not.toContain(off);
    }
    expect((await config(plain.token)).body.code).toBe(3000);
  });

  it('rejects an unknown type with invalid_notification_type (never drops it); unknown channel is 1001', async () => {
    const unknown = await putConfig({ enabled_types: ['security.login_anomaly', 'made.up'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe(1001);
    expect(unknown.body.data.error_key).toBe('invalid_notification_type');
    const channel = await putConfig({ channels: ['fax'] });
    expect([channel.status, channel.body.code]).toEqual([422, 1001]);
    expect((await config(superuser.token)).body.data.enabled_types).toHaveLength(19);
  });
});

describe('platform.notification-events', () => {
  it('creates the notification of an enabled type once, however often the event is delivered', async () => {
    const value = event('security.login_anomaly', plain.id);
    await publish(value);
    await publish(value);
    await waitUntil(
      async () => (await countFor(plain.id, 'security.login_anomaly')) === 1,
      15_000,
      'no notification',
    );
    const listed = await h.request('GET', '/notifications?type=security.login_anomaly', {
      token: plain.token,
    });
    expect(listed.body.data.items, JSON.stringify(listed.body)).toHaveLength(1);
    expect(listed.body.data.items[0]).toMatchObject({
      scope: 'user',
      user_id: plain.id,
      level: 'high',
      data: { source: 'test' },
    });
    // The id is a fresh UUID, not the event's idempotency key.
    expect(listed.body.data.items[0].id).not.toBe(value.id);
    const key = await h.notifications.dependencies.models.eventKeys.findById(value.id).lean();
    expect(key?.notification_id).toBe(listed.body.data.items[0].id);
    // A marker event published after the duplicates: once it is handled, so were they.
    const marker = event('security.account_locked', plain.id);
    await publish(marker);
    await waitUntil(
      async () => (await countFor(plain.id, 'security.account_locked')) === 1,
      15_000,
      'no marker',
    );
    expect(await countFor(plain.id, 'security.login_anomaly')).toBe(1);
  });

  it('drops a type that is not enabled, for good', async () => {
    const user = await h.createUser({ name: 'dropped' });
    await publish(event('workflow.run_success', user.id));
    const updated = await putConfig({ enabled_types: ['security.password_changed'], channels: [] });
    expect(updated.body.data).toEqual({ channels: [], enabled_types: ['security.password_changed'] });
    await publish(event('security.login_anomaly', user.id));
    await publish(event('security.password_changed', user.id));
    await waitUntil(
      async () => (await countFor(user.id, 'security.password_changed')) === 1,
      15_000,
      'no marker',
    );
    expect(await countFor(user.id, 'workflow.run_success')).toBe(0);
    expect(await countFor(user.id, 'security.login_anomaly')).toBe(0);
    expect(
      await h.notifications.dependencies.models.eventKeys.countDocuments({ type: 'security.login_anomaly' }),
    ).toBe(1);
    // Enabling it later creates nothing for the dropped event (no backfill).
    await putConfig({ enabled_types: ['security.login_anomaly', 'security.password_changed'] });
    const marker = event('security.password_changed', user.id);
    await publish(marker);
    await waitUntil(
      async () => (await countFor(user.id, 'security.password_changed')) === 2,
      15_000,
      'no marker',
    );
    expect(await countFor(user.id, 'security.login_anomaly')).toBe(0);
  });
});

describe('configured channels', () => {
  it('an automatic notification gets a delivery on each configured channel that can deliver', async () => {
    await enableSlackChannel(h, superuser.token);
    // Webhook is configured as a channel but not enabled: skipped, the rest still delivered.
    const updated = await putConfig({ channels: ['slack', 'webhook'], enabled_types: ['apikey.expiring'] });
    expect(updated.body.data.channels).toEqual(['slack', 'webhook']);
    const user = await h.createUser({ name: 'channels' });
    await publish(event('apikey.expiring', user.id));
    await waitUntil(
      async () => (await countFor(user.id, 'apikey.expiring')) === 1,
      15_000,
      'no notification',
    );
    // Read until the delivery is listed (a read while the worker updates it came back empty once).
    const listed = await waitUntil(
      async () => {
        const answer = await h.request('GET', `/admin/notifications?user_id=${user.id}`, {
          token: superuser.token,
        });
        return answer.body.data.items[0]?.deliveries.length === 1 ? answer : undefined;
      },
      15_000,
      'no delivery',
    );
    expect(listed.body.data.items).toHaveLength(1);
    expect(listed.body.data.items[0].deliveries.map((d: { channel: string }) => d.channel)).toEqual([
      'slack',
    ]);
  });
});

describe('links of automatic notifications', () => {
  it('keeps an http(s) or path link and drops a javascript:/data:/vbscript: one (the notification stays)', async () => {
    await putConfig({ channels: [], enabled_types: ['apikey.expiring'] });
    const user = await h.createUser({ name: 'links' });
    const links = [
      ' javascript:alert(1)',
      'DATA:text/html,x',
      'VbScript:x',
      '/api-keys/k',
      'https://x.example/a',
    ];
    for (const link_url of links) {
      await publish(event('apikey.expiring', user.id, { title: `link ${link_url}`, link_url }));
    }
    // The list, not the store: an event is done once its read-model write is made too.
    const listed = await waitUntil(
      async () => {
        const answer = await h.request('GET', '/notifications?page_size=10', { token: user.token });
        return answer.body.data.items.length === links.length ? answer : undefined;
      },
      15_000,
      'not every event handled',
    );
    const linkOf = new Map(
      listed.body.data.items.map((item: { title: string; link_url: string | null }) => [
        item.title,
        item.link_url,
      ]),
    );
    expect(Object.fromEntries(linkOf)).toEqual({
      'link  javascript:alert(1)': null,
      'link DATA:text/html,x': null,
      'link VbScript:x': null,
      'link /api-keys/k': '/api-keys/k',
      'link https://x.example/a': 'https://x.example/a',
    });
  });
});
