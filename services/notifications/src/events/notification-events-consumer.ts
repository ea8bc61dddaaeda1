import { notificationEventsV1 } from '@platform/contracts';
import {
  ensureTopics,
  NonRetryableError,
  runBatchConsumer,
  Topics,
  type ConsumerHandle,
} from '@platform/kafka';
import type { NotificationsDependencies } from '../deps.js';
import { handleNotificationEvents } from '../domain/handle-notification-events.js';

type NotificationEvent = notificationEventsV1.NotificationEvent;

/** `platform.notification-events` under this deployment's prefix (tests use their own). */
export function notificationEventsTopic(prefix: string): string {
  return `${prefix}${Topics.NOTIFICATION_EVENTS}`;
}

/** A message's JSON value as an event; anything but a JSON object goes to the dead-letter topic. */
function decodeEvent(value: unknown): NotificationEvent {
  if (typeof value !== 'object' || value === null) {
    throw new NonRetryableError('notification event is not a JSON object');
  }
  return notificationEventsV1.NotificationEvent.fromJSON(value);
}

/**
 * Automatic notifications: one consumer group shared by every replica, one handler call per
 * fetched batch (each step is one MongoDB round trip for the whole batch, not one per event).
 * Idempotency lives in MongoDB (the event's key, apart from the notification's id), so no
 * processed-id store is needed and a redelivery after a crash finishes what the first attempt
 * started. A batch that keeps failing is retried one event at a time, and only the events that
 * still fail are dead-lettered.
 */
export async function startNotificationEventsConsumer(
  deps: NotificationsDependencies,
): Promise<ConsumerHandle> {
  const topic = notificationEventsTopic(deps.config.EVENTS_TOPIC_PREFIX);
  await ensureTopics(deps.kafka, [topic]);
  return runBatchConsumer<NotificationEvent>(deps.kafka, {
    groupId: deps.config.NOTIFICATION_EVENTS_GROUP,
    topics: [topic],
    fromBeginning: true,
    logger: deps.logger,
    decode: decodeEvent,
    handle: async (events, _topic, messages) => {
      // The steps are batched, but each event's deliveries are submitted as that event's own work:
      // under its request id and a span that is a child of its sender's, so a delivery shows up
      // in the trace of whatever raised the event (the batch span only links to its senders).
      const origins = messages.map(
        (message) =>
          <R>(work: () => R) =>
            message.run(work),
      );
      const outcomes = await handleNotificationEvents(deps, events, origins);
      deps.logger.debug({ events: events.length, outcomes }, 'notification events handled');
    },
  });
}
