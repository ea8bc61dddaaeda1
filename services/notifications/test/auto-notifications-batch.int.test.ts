import { consumerLag, deadLetterTopic } from '@platform/kafka';
import { waitUntil, type IdentityUser } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toDocument } from '../src/domain/store-notifications.js';
import { notificationEventsTopic } from '../src/events/notification-events-consumer.js';
import { startNotificationsHarness, type NotificationsHarness } from './support/harness.js';
import { enableSlackChannel } from './support/slack-channel.js';

// Automatic notifications are handled per fetched batch: these events are published in one
// produce request to one partition, so the consumer takes them as one batch.

let h: NotificationsHarness;
let superuser: IdentityUser;

beforeAll(async () => {
  h = await startNotificationsHarness();
  superuser = await h.createUser({ name: 'root', superuser: true, roles: ['Super Admin'] });
  await h.notifications.eventsReady;
});

afterAll(async () => {
  await h?.stop();
});

function event(type: string, userId: string, title: string) {
  return {
    id: randomUUID(),
    type,
    scope: 'user',
    team_id: '',
    user_id: userId,
    title,
    content: 'something happened',
    level: 'high',
    data: { source: 'batch-test' },
    link_url: '',
    occurred_at: new Date().toISOString(),
    source_service: 'test',
  };
}

/** All in one produce request, keyed alike: one partition, in this order. */
async function publishBurst(values: unknown[]): Promise<void> {
  const topic = notificationEventsTopic(h.topicPrefix);
  await h.notifications.dependencies.producer.publishMany(
    // A string among them is sent as such (JSON `"..."`): not an object, so it is dead-lettered.
    values.map((value) => ({ topic, message: { key: 'burst', value: value as object } })),
  );
}

const models = () => h.notifications.dependencies.models;
const notificationsOf = (userId: string) =>
  models().notifications.find({ user_id: userId }).lean<{ _id: string; title: string }[]>();

describe('a batch of notification events', () => {
  it('creates one notification per valid event id, none for duplicates, disabled or invalid events, one delivery each', async () => {
    await enableSlackChannel(h, superuser.token);
    const config = await h.request('PUT', '/admin/site-settings/auto-notifications', {
      token: superuser.token,
      json: { channels: ['slack'], enabled_types: ['apikey.expiring', 'security.login_anomaly'] },
    });
    expect(config.body.code).toBe(0);
    const user = await h.createUser({ name: 'batch' });
    const first = event('apikey.expiring', user.id, 'first');
    const second = event('security.login_anomaly', user.id, 'second');
    const third = event('apikey.expiring', user.id, 'third');
    const disabled = event('workflow.run_success', user.id, 'disabled');
    const invalid = { ...event('apikey.expiring', '', 'no target') };
    // How many keys each handled batch claimed: the burst's three distinct valid ids together.
    const claimed: number[] = [];
    const insertKeys = models().eventKeys.insertMany.bind(models().eventKeys);
    vi.spyOn(models().eventKeys, 'insertMany').mockImplementation(((keys: unknown[], options: unknown) => {
      claimed.push(keys.length);
      return insertKeys(keys as never, options as never);
    }) as never);
    await publishBurst([first, 'not an object', first, disabled, second, invalid, second, third]);
    // waitUntil stops at anything but undefined (also `false`).
    await waitUntil(
      async () => ((await notificationsOf(user.id)).length >= 3 ? true : undefined),
      15_000,
      'batch not handled',
    );

    // Delivered again later, with a marker behind it: once the marker is stored, so was it.
    const marker = event('security.login_anomaly', user.id, 'marker');
    await publishBurst([first, marker]);
    // Handled means its key is completed (the last step, after the notification and deliveries).
    await waitUntil(
      async () => ((await models().eventKeys.findById(marker.id).lean())?.completed_at ? true : undefined),
      15_000,
      'marker not handled',
    );

    expect(claimed).toEqual([3, 2]);
    const stored = await notificationsOf(user.id);
    expect(stored.map((doc) => doc.title).sort()).toEqual(['first', 'marker', 'second', 'third']);
    const keys = await models()
      .eventKeys.find({ _id: { $in: [first.id, second.id, third.id, marker.id] } })
      .lean();
    expect(keys.map((key) => key.notification_id).sort()).toEqual(stored.map((doc) => doc._id).sort());
    expect(keys.every((key) => key.completed_at !== null)).toBe(true);
    // Nothing is written for a disabled type or an event without a target.
    expect(await models().eventKeys.countDocuments({ _id: { $in: [disabled.id, invalid.id] } })).toBe(0);
    expect(await models().notifications.countDocuments({ title: { $in: ['disabled', 'no target'] } })).toBe(
      0,
    );
    // One slack delivery per notification, scheduled once.
    const deliveries = await h.notifications.delivery.repo.model
      .find({ notification_id: { $in: stored.map((doc) => doc._id) } })
      .lean();
    expect(deliveries.map((doc) => doc.channel)).toEqual(['slack', 'slack', 'slack', 'slack']);
    expect(new Set(deliveries.map((doc) => doc.notification_id)).size).toBe(4);
    // The string went to the dead-letter topic, alone.
    const deadLetters = await consumerLag(
      h.notifications.dependencies.kafka,
      'nobody-reads-this',
      deadLetterTopic(notificationEventsTopic(h.topicPrefix)),
    );
    expect(deadLetters.total).toBe(1);
    // The inbox lists them (the read-model write is made for the batch too).
    const listed = await h.request('GET', '/notifications?page_size=10', { token: user.token });
    expect(listed.body.data.items).toHaveLength(4);
  });

  it('finishes an event whose previous attempt stopped after storing the notification, among new ones', async () => {
    const user = await h.createUser({ name: 'half-way' });
    const interrupted = event('apikey.expiring', user.id, 'interrupted');
    // As if a process died after the key and the notification were written, before the rest.
    const notificationId = randomUUID();
    await models().eventKeys.create({
      _id: interrupted.id,
      notification_id: notificationId,
      type: interrupted.type,
      completed_at: null,
      created_at: new Date(),
    });
    await models().notifications.create(
      toDocument(
        {
          id: notificationId,
          scope: 'user',
          team_id: null,
          user_id: user.id,
          type: interrupted.type,
          source: 'system',
          title: interrupted.title,
          content: interrupted.content,
          level: 'high',
          data: null,
          link_url: null,
          expires_at: null,
        },
        new Date(),
      ),
    );
    const fresh = event('apikey.expiring', user.id, 'fresh');
    await publishBurst([interrupted, fresh]);
    await waitUntil(
      async () => ((await notificationsOf(user.id)).length >= 2 ? true : undefined),
      15_000,
      'batch not handled',
    );
    const key = await waitUntil(async () => {
      const doc = await models().eventKeys.findById(interrupted.id).lean();
      return doc?.completed_at ? doc : undefined;
    });
    expect(key.notification_id).toBe(notificationId);
    const stored = await notificationsOf(user.id);
    expect(stored.map((doc) => doc.title).sort()).toEqual(['fresh', 'interrupted']);
    expect(stored.find((doc) => doc.title === 'interrupted')?._id).toBe(notificationId);
    // Its read-model write and its delivery are made now (slack is still configured).
    const deliveries = await h.notifications.delivery.repo.model
      .find({ notification_id: { $in: stored.map((doc) => doc._id) } })
      .lean();
    expect(deliveries.map((doc) => doc.notification_id).sort()).toEqual(stored.map((doc) => doc._id).sort());
    const listed = await h.request('GET', '/notifications?page_size=10', { token: user.token });
    expect(listed.body.data.items.map((item: { id: string }) => item.id)).toContain(notificationId);
  });
});
