import { randomUUID } from 'node:crypto';
import type { domainEventsV1, notificationEventsV1 } from '@platform/contracts';
import { Topics } from '@platform/kafka';
import { enqueueEvent } from '@platform/outbox';
import type { IdentityDependencies } from '../deps.js';

type EventDeps = Pick<IdentityDependencies, 'pool' | 'logger'>;

const SOURCE = 'identity';

export interface UserNotification {
  type: string;
  userId: string;
  teamId?: string;
  title: string;
  content: string;
  level?: 'low' | 'medium' | 'high';
  data?: Record<string, unknown>;
}

/**
 * Publishes an automatic-notification event addressed to one user, through the outbox: the event
 * is stored in Postgres first and relayed to Kafka by the OutboxRelay, so a Kafka outage delays it
 * but never loses it, and never fails the request.
 */
export async function notifyUser(deps: EventDeps, event: UserNotification): Promise<void> {
  const value: notificationEventsV1.NotificationEvent = {
    id: randomUUID(),
    type: event.type,
    scope: 'user',
    team_id: event.teamId ?? '',
    user_id: event.userId,
    title: event.title,
    content: event.content,
    level: event.level ?? 'medium',
    data: event.data ?? {},
    link_url: '',
    occurred_at: new Date().toISOString(),
    source_service: SOURCE,
  };
  await safePublish(deps, Topics.NOTIFICATION_EVENTS, event.userId, value);
}

/** Publishes a domain event (cache drops, facts for other services) through the outbox. */
export async function publishDomainEvent(
  deps: EventDeps,
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
  await safePublish(deps, Topics.DOMAIN_EVENTS, subject, value);
}

async function safePublish(
  deps: EventDeps,
  topic: string,
  key: string,
  value: { id: string; type: string },
): Promise<void> {
  try {
    await enqueueEvent(deps.pool, { topic, key, type: value.type, id: value.id, value });
  } catch (err) {
    // Only Postgres being down gets here; the state change that caused the event already committed.
    deps.logger.error(
      { err, topic, event_type: value.type, event_id: value.id },
      'event could not be stored in the outbox',
    );
  }
}
