import type { notificationEventsV1 } from '@platform/contracts';
import type { NotificationsDependencies } from '../deps.js';
import { handleNotificationEvents, type EventOutcome } from './handle-notification-events.js';

export type { EventOutcome } from './handle-notification-events.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'delivery' | 'logger' | 'inbox'>;

/**
 * One automatic-notification event: a batch of one (see handleNotificationEvents for the rules:
 * disabled types and events without a target are dropped before anything is written; a
 * redelivered event creates nothing new).
 */
export async function handleNotificationEvent(
  deps: Deps,
  event: notificationEventsV1.NotificationEvent,
): Promise<EventOutcome> {
  const [outcome] = await handleNotificationEvents(deps, [event]);
  return outcome!;
}
