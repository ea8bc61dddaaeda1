import { randomUUID } from 'node:crypto';
import type { domainEventsV1, notificationEventsV1 } from '@platform/contracts';
import { Topics } from '@platform/kafka';
import type { IdentityDependencies } from '../identity-service.js';

type EventDeps = Pick<IdentityDependencies, 'producer' | 'logger'>;

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
 * Publishes an automatic-notification event addressed to one user. The state change has already
 * committed when this runs, so a Kafka failure is logged and never fails the request (an outbox
 * would make it durable; not built yet).
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

/** Publishes a domain event (cache drops, facts for other services); failures are logged. */
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
    await deps.producer.publish(topic, { key, value, type: value.type, id: value.id });
  } catch (err) {
    deps.logger.error({ err, topic, event_type: value.type, event_id: value.id }, 'event publish failed');
  }
}
