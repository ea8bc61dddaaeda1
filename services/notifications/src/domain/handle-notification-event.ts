import type { notificationEventsV1 } from '@platform/contracts';
import { isDuplicateKeyError } from '@platform/mongo';
import { randomUUID } from 'node:crypto';
import type { EventKeyDoc, NotificationDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { readAutoConfig } from './auto-config.js';
import type { ChannelName } from './delivery-port.js';
import { isSafeLinkUrl } from './link-url.js';
import { LEVELS, SCOPES, type Scope } from './notification-types.js';
import { recordCreated } from './inbox-read-model.js';
import { toDeliverable, toDocument } from './store-notifications.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'delivery' | 'logger' | 'inbox'>;
type NotificationEvent = notificationEventsV1.NotificationEvent;

export type EventOutcome = 'created' | 'disabled' | 'duplicate' | 'invalid';

/** The notification id an idempotency key stands for: fixed by the first delivery of the event. */
async function claimKey(deps: Deps, event: NotificationEvent): Promise<EventKeyDoc> {
  const insert = {
    $setOnInsert: {
      notification_id: randomUUID(),
      type: event.type,
      completed_at: null,
      created_at: deps.now(),
    },
  };
  try {
    const doc = await deps.models.eventKeys
      .findOneAndUpdate({ _id: event.id }, insert, { upsert: true, new: true })
      .lean<EventKeyDoc>();
    if (doc) return doc;
  } catch (error) {
    // Two consumers raced to insert the key: the other one's document stands.
    if (!isDuplicateKeyError(error)) throw error;
  }
  const existing = await deps.models.eventKeys.findById(event.id).lean<EventKeyDoc>();
  if (!existing) throw new Error(`event key ${event.id} vanished`);
  return existing;
}

/** The configured channels that can deliver now; a channel switched off meanwhile is skipped. */
async function deliverableChannels(deps: Deps, channels: readonly ChannelName[]): Promise<ChannelName[]> {
  const usable: ChannelName[] = [];
  for (const channel of channels) {
    try {
      await deps.delivery.validateChannels([channel]);
      usable.push(channel);
    } catch (error) {
      deps.logger.warn({ channel, err: error }, 'automatic notification: channel skipped');
    }
  }
  return usable;
}

/**
 * One automatic-notification event: dropped when its type is not enabled (checked before anything
 * is written, so a disabled type is never backfilled); else one notification under the id its
 * idempotency key stands for, and the configured channels' deliveries. A redelivered event
 * creates nothing new.
 */
export async function handleNotificationEvent(deps: Deps, event: NotificationEvent): Promise<EventOutcome> {
  const config = await readAutoConfig(deps);
  if (!config.enabled_types.includes(event.type)) return 'disabled';
  const scope = event.scope as Scope;
  const valid =
    event.id &&
    event.title &&
    SCOPES.includes(scope) &&
    (scope !== 'team' || event.team_id) &&
    (scope !== 'user' || event.user_id);
  if (!valid) {
    deps.logger.warn(
      { id: event.id, type: event.type },
      'automatic notification event without a target; dropped',
    );
    return 'invalid';
  }
  const key = await claimKey(deps, event);
  if (key.completed_at) return 'duplicate';
  let doc: NotificationDoc = toDocument(
    {
      id: key.notification_id,
      scope,
      team_id: event.team_id || null,
      user_id: event.user_id || null,
      type: event.type,
      source: 'system',
      title: event.title.slice(0, 255),
      content: event.content,
      level: (LEVELS as readonly string[]).includes(event.level) ? event.level : 'medium',
      data: event.data ?? null,
      // Only a safe link is kept; the notification itself still counts (another service's text).
      link_url: event.link_url && isSafeLinkUrl(event.link_url) ? event.link_url : null,
      expires_at: null,
    },
    deps.now(),
  );
  try {
    await deps.models.notifications.create(doc);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // A previous attempt stored it and stopped before finishing: finish its deliveries.
    doc = (await deps.models.notifications.findById(key.notification_id).lean<NotificationDoc>()) ?? doc;
  }
  // Also after a redelivery: a previous attempt may have stopped before its read-model write.
  await recordCreated(deps, [doc]);
  const channels = await deliverableChannels(deps, config.channels);
  if (channels.length > 0) await deps.delivery.scheduleDeliveries(toDeliverable(doc), channels);
  await deps.models.eventKeys.updateOne({ _id: event.id }, { $set: { completed_at: deps.now() } });
  return 'created';
}
