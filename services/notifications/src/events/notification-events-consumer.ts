import { notificationEventsV1 } from '@platform/contracts';
import { ensureTopics, NonRetryableError, runConsumer, Topics, type ConsumerHandle } from '@platform/kafka';
import type { NotificationsDependencies } from '../deps.js';
import { handleNotificationEvent } from '../domain/handle-notification-event.js';

/** `platform.notification-events` under this deployment's prefix (tests use their own). */
export function notificationEventsTopic(prefix: string): string {
  return `${prefix}${Topics.NOTIFICATION_EVENTS}`;
}

/**
 * Automatic notifications: one consumer group shared by every replica. Idempotency lives in
 * MongoDB (the event's key, apart from the notification's id), so no processed-id store is needed
 * and a redelivery after a crash finishes what the first attempt started.
 */
export async function startNotificationEventsConsumer(
  deps: NotificationsDependencies,
): Promise<ConsumerHandle> {
  const topic = notificationEventsTopic(deps.config.EVENTS_TOPIC_PREFIX);
  await ensureTopics(deps.kafka, [topic]);
  return runConsumer(deps.kafka, {
    groupId: deps.config.NOTIFICATION_EVENTS_GROUP,
    topics: [topic],
    fromBeginning: true,
    processedStore: { isProcessed: async () => false, markProcessed: async () => undefined },
    logger: deps.logger,
    handler: async (message) => {
      if (typeof message.value !== 'object' || message.value === null) {
        throw new NonRetryableError('notification event is not a JSON object');
      }
      const event = notificationEventsV1.NotificationEvent.fromJSON(message.value);
      const outcome = await handleNotificationEvent(deps, event);
      deps.logger.debug({ id: event.id, type: event.type, outcome }, 'notification event handled');
    },
  });
}
