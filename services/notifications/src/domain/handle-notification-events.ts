import type { notificationEventsV1 } from '@platform/contracts';
import type { EventKeyDoc, NotificationDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { readAutoConfig, type AutoConfig } from './auto-config.js';
import type { ChannelName, DeliverableNotification } from './delivery-port.js';
import { claimKeys, completeKeys, failedOnlyOnDuplicateKeys } from './event-keys.js';
import { recordCreated } from './inbox-read-model.js';
import { isSafeLinkUrl } from './link-url.js';
import { LEVELS, SCOPES, type Scope } from './notification-types.js';
import { toDeliverable, toDocument } from './store-notifications.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'delivery' | 'logger' | 'inbox'>;
type NotificationEvent = notificationEventsV1.NotificationEvent;

export type EventOutcome = 'created' | 'disabled' | 'duplicate' | 'invalid';

/** Dropped before anything is written: a type not enabled, or an event without its target. */
function rejection(deps: Deps, config: AutoConfig, event: NotificationEvent): EventOutcome | null {
  if (!config.enabled_types.includes(event.type)) return 'disabled';
  const scope = event.scope as Scope;
  const valid =
    event.id &&
    event.title &&
    SCOPES.includes(scope) &&
    (scope !== 'team' || event.team_id) &&
    (scope !== 'user' || event.user_id);
  if (valid) return null;
  deps.logger.warn(
    { id: event.id, type: event.type },
    'automatic notification event without a target; dropped',
  );
  return 'invalid';
}

function notificationOf(deps: Deps, event: NotificationEvent, key: EventKeyDoc): NotificationDoc {
  return toDocument(
    {
      id: key.notification_id,
      scope: event.scope as Scope,
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
}

/**
 * Stores the notifications in one unordered insert. Ids already stored belong to a previous attempt
 * that stopped before finishing: the stored documents stand and that attempt is finished.
 */
async function storeOnce(deps: Deps, docs: NotificationDoc[]): Promise<NotificationDoc[]> {
  try {
    // lean: toDocument builds every field (title checked non-empty above); no hydration per document.
    await deps.models.notifications.insertMany(docs, { ordered: false, lean: true });
    return docs;
  } catch (error) {
    if (!failedOnlyOnDuplicateKeys(error)) throw error;
  }
  const ids = docs.map((doc) => doc._id);
  const stored = await deps.models.notifications.find({ _id: { $in: ids } }).lean<NotificationDoc[]>();
  const byId = new Map(stored.map((doc) => [doc._id, doc]));
  return docs.map((doc) => byId.get(doc._id) ?? doc);
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
 * A fetched batch of automatic-notification events, with the rules of one event each: a type not
 * enabled is dropped before anything is written (never backfilled), an event without a target is
 * dropped with a warning; else one notification under the id its idempotency key stands for and
 * the configured channels' deliveries. A redelivered event (also twice in one batch) creates
 * nothing new; an attempt that stopped half-way is finished (notification → read model →
 * deliveries → completed). The configuration is read once, and each step is one round trip for
 * the whole batch. Returns each event's outcome, in order. `origins[i]`, when given, runs the
 * submission of event i's deliveries as that event's own work (its request id and trace).
 */
export async function handleNotificationEvents(
  deps: Deps,
  events: readonly NotificationEvent[],
  origins: ReadonlyArray<DeliverableNotification['origin']> = [],
): Promise<EventOutcome[]> {
  const originOf = new Map(events.map((event, index) => [event, origins[index]]));
  const config = await readAutoConfig(deps);
  // Checked as each event's own work, so a dropped event's warning carries its request id.
  const outcomes: Array<EventOutcome | null> = events.map((event, index) => {
    const check = () => rejection(deps, config, event);
    return origins[index] ? origins[index](check) : check();
  });
  const firsts = new Map<string, NotificationEvent>();
  events.forEach((event, index) => {
    if (outcomes[index] !== null) return;
    if (firsts.has(event.id)) outcomes[index] = 'duplicate';
    else firsts.set(event.id, event);
  });
  const keys = await claimKeys(deps, [...firsts.values()]);
  const pending = [...firsts.values()].filter((event) => !keys.get(event.id)!.completed_at);
  if (pending.length > 0) {
    const docs = await storeOnce(
      deps,
      pending.map((event) => notificationOf(deps, event, keys.get(event.id)!)),
    );
    // Also after a redelivery: a previous attempt may have stopped before its read-model write.
    await recordCreated(deps, docs);
    const channels = await deliverableChannels(deps, config.channels);
    const deliverables = docs.map((doc, index) => ({
      ...toDeliverable(doc),
      origin: originOf.get(pending[index]!),
    }));
    if (channels.length > 0) await deps.delivery.scheduleManyDeliveries(deliverables, channels);
    await completeKeys(
      deps,
      pending.map((event) => event.id),
    );
  }
  const created = new Set(pending.map((event) => event.id));
  // Later copies of an id in this batch were marked duplicate above.
  return events.map((event, index) => outcomes[index] ?? (created.has(event.id) ? 'created' : 'duplicate'));
}
