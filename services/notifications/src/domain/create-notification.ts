import type { notificationsV1 } from '@platform/contracts';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { randomUUID } from 'node:crypto';
import type { NotificationsDependencies } from '../deps.js';
import { CHANNEL_NAMES, type ChannelName } from './delivery-port.js';
import { readLinkUrl } from './link-url.js';
import { LEVELS, SCOPES, SOURCES, type Scope } from './notification-types.js';
import { toNotificationMessage } from './notification-view.js';
import { readTime } from './paging.js';
import { storeNotifications, type NewNotification } from './store-notifications.js';
import { requireTeamAdmin } from './team-authority.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'directory' | 'delivery' | 'logger' | 'inbox'>;

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[], fallback?: T): T {
  if (!value && fallback) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw BusinessError.validation({ [field]: [`must be one of: ${allowed.join(', ')}`] });
}

function channelsOf(names: readonly string[]): ChannelName[] {
  const channels = [...new Set(names)];
  for (const name of channels) oneOf('notify_channels', name, CHANNEL_NAMES);
  return channels as ChannelName[];
}

/** A create request, the closed sets by name ('' = not given: a default, or refused when required). */
export type CreateNotificationInput = Omit<
  notificationsV1.CreateNotificationRequest,
  'scope' | 'source' | 'level' | 'notify_channels'
> & { scope: string; source: string; level: string; notify_channels: string[] };

/** Who may address whom: `global` superusers only; `team` its OWNER/ADMIN; `user` known users. */
async function targetsOf(
  deps: Deps,
  caller: Principal,
  scope: Scope,
  request: CreateNotificationInput,
): Promise<{ team_id: string | null; user_id: string | null }[]> {
  if (scope === 'global') {
    if (!caller.is_superuser) throw new BusinessError(ErrorCode.INSUFFICIENT_PRIVILEGES);
    return [{ team_id: null, user_id: null }];
  }
  if (scope === 'team') {
    if (!request.team_id) throw BusinessError.named('notification_scope_requires_team');
    await requireTeamAdmin(deps, caller, request.team_id);
    return [{ team_id: request.team_id, user_id: null }];
  }
  const single = request.user_id ? [request.user_id] : [];
  const userIds = [...new Set(request.user_ids.length > 0 ? request.user_ids : single)];
  if (userIds.length === 0) throw BusinessError.named('notification_scope_requires_user');
  const known = await deps.directory.userContacts(userIds);
  if (userIds.some((id) => !known.has(id))) throw new BusinessError(ErrorCode.USER_NOT_FOUND);
  return userIds.map((id) => ({ team_id: null, user_id: id }));
}

/**
 * Admin create: scope authorization, every `notify_channels` entry checked before anything is
 * created, one notification per target (a `user_ids` batch: one per user, the first returned) with
 * a `pending` delivery per channel.
 */
export async function createNotification(
  deps: Deps,
  caller: Principal,
  request: CreateNotificationInput,
  locale: string,
): Promise<notificationsV1.CreatedNotifications> {
  const scope = oneOf('scope', request.scope, SCOPES);
  const source = oneOf('source', request.source, SOURCES, 'system');
  const level = oneOf('level', request.level, LEVELS, 'medium');
  const channels = channelsOf(request.notify_channels);
  const expiresAt = readTime('expires_at', request.expires_at) ?? null;
  const linkUrl = readLinkUrl(request.link_url);
  const targets = await targetsOf(deps, caller, scope, request);
  if (channels.length > 0) await deps.delivery.validateChannels(channels);
  const inputs: NewNotification[] = targets.map((target) => ({
    id: randomUUID(),
    scope,
    ...target,
    type: request.type,
    source,
    title: request.title,
    content: request.content,
    level,
    data: request.data ?? null,
    link_url: linkUrl,
    expires_at: expiresAt,
  }));
  const docs = await storeNotifications(deps, inputs, channels);
  const first = docs[0]!;
  const deliveries = channels.length > 0 ? await deps.delivery.deliveriesFor([first._id], locale) : new Map();
  return {
    notification: toNotificationMessage(first, null, deliveries.get(first._id) ?? []),
    count: docs.length,
  };
}
