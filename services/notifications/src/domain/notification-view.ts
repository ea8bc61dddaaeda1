import { notificationSets as sets, type notificationsV1 } from '@platform/contracts';
import type { NotificationDoc } from '../data/models.js';
import { valueIn } from './closed-values.js';
import type { DeliveryView } from './delivery-port.js';

const iso = (value: Date | null | undefined): string => (value ? value.toISOString() : '');

/** A stored notification as the API shows it; `read_at` per caller (null in admin views). */
export function toNotificationMessage(
  doc: NotificationDoc,
  readAt: Date | null,
  deliveries: readonly DeliveryView[] = [],
): notificationsV1.Notification {
  return {
    id: doc._id,
    scope: valueIn(sets.NOTIFICATION_SCOPES, doc.scope),
    team_id: doc.team_id ?? '',
    user_id: doc.user_id ?? '',
    type: doc.type,
    source: valueIn(sets.NOTIFICATION_SOURCES, doc.source),
    title: doc.title,
    content: doc.content,
    level: valueIn(sets.NOTIFICATION_LEVELS, doc.level),
    data: doc.data ?? undefined,
    link_url: doc.link_url ?? '',
    status: valueIn(sets.NOTIFICATION_STATUSES, doc.status),
    expires_at: iso(doc.expires_at),
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
    is_read: readAt !== null,
    read_at: iso(readAt),
    deliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      channel: valueIn(sets.NOTIFICATION_CHANNELS, delivery.channel),
      status: valueIn(sets.DELIVERY_STATUSES, delivery.status),
      error_message: delivery.error_message ?? '',
      retry_count: delivery.retry_count,
      sent_at: iso(delivery.sent_at),
      created_at: iso(delivery.created_at),
      updated_at: iso(delivery.updated_at),
    })),
  };
}

/** The snapshot kept in the delete audit: every stored field, dates as ISO strings. */
export function snapshotOf(doc: NotificationDoc): Record<string, unknown> {
  return {
    id: doc._id,
    scope: doc.scope,
    team_id: doc.team_id,
    user_id: doc.user_id,
    type: doc.type,
    source: doc.source,
    title: doc.title,
    content: doc.content,
    level: doc.level,
    data: doc.data,
    link_url: doc.link_url,
    status: doc.status,
    expires_at: doc.expires_at ? doc.expires_at.toISOString() : null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
