import { audienceOf, type NotificationDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import type { ChannelName, DeliverableNotification } from './delivery-port.js';
import { recordCreated } from './inbox-read-model.js';
import type { Scope } from './notification-types.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'delivery' | 'now' | 'inbox' | 'logger'>;

export interface NewNotification {
  id: string;
  scope: Scope;
  team_id: string | null;
  user_id: string | null;
  type: string;
  source: string;
  title: string;
  content: string;
  level: string;
  data: Record<string, unknown> | null;
  link_url: string | null;
  expires_at: Date | null;
}

export function toDeliverable(doc: NotificationDoc): DeliverableNotification {
  return {
    id: doc._id,
    scope: doc.scope,
    user_id: doc.user_id,
    team_id: doc.team_id,
    title: doc.title,
    content: doc.content,
    link_url: doc.link_url,
    type: doc.type,
    level: doc.level,
  };
}

export function toDocument(input: NewNotification, now: Date): NotificationDoc {
  return {
    _id: input.id,
    scope: input.scope,
    audience: audienceOf(input.scope, input.team_id, input.user_id),
    team_id: input.scope === 'team' ? input.team_id : null,
    user_id: input.scope === 'user' ? input.user_id : null,
    type: input.type,
    source: input.source,
    title: input.title,
    content: input.content,
    level: input.level,
    data: input.data,
    link_url: input.link_url,
    status: 'active',
    expires_at: input.expires_at,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Stores the notifications (the in-app copy exists before any delivery), then hands each channel's
 * delivery to the delivery side, which writes it `pending` before queueing it.
 */
export async function storeNotifications(
  deps: Deps,
  inputs: readonly NewNotification[],
  channels: readonly ChannelName[],
): Promise<NotificationDoc[]> {
  const now = deps.now();
  const docs = inputs.map((input) => toDocument(input, now));
  await deps.models.notifications.insertMany(docs, { ordered: true });
  await recordCreated(deps, docs);
  if (channels.length > 0) await deps.delivery.scheduleManyDeliveries(docs.map(toDeliverable), channels);
  return docs;
}
