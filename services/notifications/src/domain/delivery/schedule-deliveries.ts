import { randomUUID } from 'node:crypto';
import { toLocale, translate } from '@platform/errors';
import type { ChannelName, DeliverableNotification, DeliveryPort, DeliveryView } from '../delivery-port.js';
import type { SettingsSource } from './delivery-ports.js';
import { assertChannelsReady, channelSettingsFrom } from './channel-settings.js';
import type { DeliveriesRepository } from '../../data/deliveries-repository.js';
import type { DeliveryDoc } from '../../data/models.js';
import { currentOrigin } from './delivery-origin.js';
import type { DeliveryOrigin } from './delivery-ports.js';

export function toDeliveryView(doc: DeliveryDoc, locale: string): DeliveryView {
  return {
    id: doc._id,
    channel: doc.channel,
    status: doc.status,
    error_message: doc.error_key
      ? translate(doc.error_key, toLocale(locale) ?? 'en', doc.error_params)
      : null,
    retry_count: doc.retry_count,
    sent_at: doc.sent_at,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/** One `pending` delivery of the notification per channel. */
function pendingDeliveries(
  notification: DeliverableNotification,
  channels: readonly ChannelName[],
  now: Date,
  origin: DeliveryOrigin,
): DeliveryDoc[] {
  return channels.map((channel) => ({
    _id: randomUUID(),
    notification_id: notification.id,
    channel,
    status: 'pending',
    retry_count: 0,
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    claim_token: null,
    error_key: null,
    error_params: null,
    sent_at: null,
    message: {
      scope: notification.scope,
      team_id: notification.team_id,
      user_id: notification.user_id,
      type: notification.type,
      title: notification.title,
      content: notification.content,
      link_url: notification.link_url,
    },
    email_cursor: null,
    email_offset: 0,
    email_sent: 0,
    email_failed: 0,
    created_at: now,
    updated_at: now,
    ...origin,
  }));
}

/**
 * The in-app side's view of delivery: validate channels before a notification is created, store
 * its deliveries `pending` (MongoDB first: nothing is lost when Kafka is down) and submit them
 * without making the request wait for Kafka, read them back localized.
 */
export function deliveryPort(deps: {
  repo: DeliveriesRepository;
  settings: SettingsSource;
  submit(id: string): Promise<unknown>;
  onSubmitError(err: unknown, id: string): void;
  now(): number;
}): DeliveryPort {
  const scheduleMany: DeliveryPort['scheduleManyDeliveries'] = async (notifications, channels) => {
    const now = new Date(deps.now());
    const unique = [...new Set(channels)];
    // Built and submitted as the work of the notification's origin (an event's own span and
    // request id), which each delivery also keeps for its later attempts (delivery-origin.ts).
    const perNotification = notifications.map((notification) => {
      const run = notification.origin ?? (<R>(work: () => R) => work());
      return { run, docs: run(() => pendingDeliveries(notification, unique, now, currentOrigin())) };
    });
    await deps.repo.insert(perNotification.flatMap((entry) => entry.docs));
    for (const { run, docs } of perNotification) {
      run(() => {
        for (const doc of docs) {
          deps.submit(doc._id).catch((err: unknown) => deps.onSubmitError(err, doc._id));
        }
      });
    }
  };
  return {
    async validateChannels(channels) {
      if (channels.length === 0) return;
      assertChannelsReady(channels, channelSettingsFrom(await deps.settings.get()));
    },
    scheduleDeliveries: (notification, channels) => scheduleMany([notification], channels),
    scheduleManyDeliveries: scheduleMany,
    async deliveriesFor(notificationIds, locale) {
      const byNotification = new Map<string, DeliveryView[]>(notificationIds.map((id) => [id, []]));
      for (const doc of await deps.repo.byNotifications(notificationIds)) {
        byNotification.get(doc.notification_id)?.push(toDeliveryView(doc, locale));
      }
      return byNotification;
    },
  };
}
