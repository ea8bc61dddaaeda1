import { randomUUID } from 'node:crypto';
import type { domainEventsV1, notificationEventsV1 } from '@platform/contracts';
import { Topics } from '@platform/kafka';
import { enqueueEvent, type Queryable } from '@platform/outbox';

// Not events/ code: these write outbox rows in the use case's own transaction (the state change and
// its event commit together); the OutboxRelay of the composition root is what publishes to Kafka.
const SOURCE = 'identity';

export interface UserNotification {
  type: string;
  userId: string;
  teamId?: string;
  title: string;
  content: string;
  level?: 'low' | 'medium' | 'high';
  data?: Record<string, unknown>;
  /** The idempotency key; default a fresh UUID. Deterministic for scheduled notices. */
  id?: string;
  occurredAt?: Date;
}

/**
 * Publishes an automatic-notification event addressed to one user, through the outbox. Pass the
 * transaction client of the state change the event reports: the event then commits or rolls back
 * with it (never an event for a change that did not happen, never a change without its event). The
 * OutboxRelay relays it to Kafka, so a Kafka outage delays it but never loses it or fails the
 * request. A failure to store it throws, failing (and rolling back) the change.
 */
export async function notifyUser(tx: Queryable, event: UserNotification): Promise<void> {
  const value: notificationEventsV1.NotificationEvent = {
    id: event.id ?? randomUUID(),
    type: event.type,
    scope: 'user',
    team_id: event.teamId ?? '',
    user_id: event.userId,
    title: event.title,
    content: event.content,
    level: event.level ?? 'medium',
    data: event.data ?? {},
    link_url: '',
    occurred_at: (event.occurredAt ?? new Date()).toISOString(),
    source_service: SOURCE,
  };
  await enqueueEvent(tx, {
    topic: Topics.NOTIFICATION_EVENTS,
    key: event.userId,
    type: value.type,
    id: value.id,
    value,
  });
}

/** Publishes a domain event (cache drops, facts for other services) through the outbox, as above. */
export async function publishDomainEvent(
  tx: Queryable,
  type: string,
  subject: string,
  data: Record<string, unknown>,
): Promise<void> {
  const value: domainEventsV1.DomainEvent = {
    id: randomUUID(),
    type,
    source_service: SOURCE,
    subject,
    data,
    occurred_at: new Date().toISOString(),
  };
  await enqueueEvent(tx, { topic: Topics.DOMAIN_EVENTS, key: subject, type, id: value.id, value });
}
