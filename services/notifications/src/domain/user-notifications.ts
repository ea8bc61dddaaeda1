import type { notificationsV1 } from '@platform/contracts';
import type { Principal } from '@platform/grpc';
import type { FilterQuery } from 'mongoose';
import { audiencesOf, type NotificationDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { literalPattern } from './notification-types.js';
import { toNotificationMessage } from './notification-view.js';
import { readPaging, readTime } from './paging.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now'>;

/** Not expired at `now` (no `expires_at`, or one still ahead). */
export function notExpired(now: Date): FilterQuery<NotificationDoc> {
  return { $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

/** Ids of the caller's read records among these audiences (unread_only and the unread count). */
async function readIds(deps: Deps, caller: Principal, audiences: string[]): Promise<string[]> {
  const reads = await deps.models.reads
    .find({ user_id: caller.user_id, audience: { $in: audiences } }, { notification_id: 1 })
    .lean();
  return reads.map((read) => read.notification_id);
}

/** User list: visible (global, own, own teams), not expired, every filter, newest first. */
export async function listNotifications(
  deps: Deps,
  caller: Principal,
  request: notificationsV1.ListNotificationsRequest,
): Promise<notificationsV1.NotificationPage> {
  const paging = readPaging(request.page, request.page_size);
  const now = deps.now();
  let audiences = audiencesOf(caller.user_id, caller.team_ids);
  if (request.scope) {
    const prefix = request.scope === 'global' ? 'g' : request.scope === 'team' ? 't:' : 'u:';
    audiences = audiences.filter((audience) => audience.startsWith(prefix));
  }
  const and: FilterQuery<NotificationDoc>[] = [{ audience: { $in: audiences } }, notExpired(now)];
  if (request.type) and.push({ type: request.type });
  if (request.level) and.push({ level: request.level });
  if (request.search) {
    const pattern = literalPattern(request.search);
    and.push({ $or: [{ title: pattern }, { content: pattern }, { type: pattern }] });
  }
  const from = readTime('created_from', request.created_from);
  const to = readTime('created_to', request.created_to);
  if (from || to) and.push({ created_at: { ...(from && { $gte: from }), ...(to && { $lte: to }) } });
  if (request.unread_only) {
    const read = await readIds(deps, caller, audiences);
    if (read.length > 0) and.push({ _id: { $nin: read } });
  }
  const filter: FilterQuery<NotificationDoc> = { $and: and };
  const [docs, total] = await Promise.all([
    deps.models.notifications
      .find(filter)
      .sort({ created_at: -1, _id: -1 })
      .skip(paging.skip)
      .limit(paging.pageSize)
      .lean<NotificationDoc[]>(),
    deps.models.notifications.countDocuments(filter),
  ]);
  const reads = await deps.models.reads
    .find({ _id: { $in: docs.map((doc) => `${doc._id}:${caller.user_id}`) } })
    .lean();
  const readAt = new Map(reads.map((read) => [read.notification_id, read.read_at]));
  return {
    items: docs.map((doc) => toNotificationMessage(doc, readAt.get(doc._id) ?? null)),
    total,
    page: paging.page,
    page_size: paging.pageSize,
  };
}

/**
 * Visible, not expired, not read by the caller: the visible count minus the caller's read records
 * of visible, unexpired notifications (both counts served by an index; no per-recipient rows).
 */
export async function unreadCount(deps: Deps, caller: Principal): Promise<notificationsV1.UnreadCount> {
  const now = deps.now();
  const audiences = audiencesOf(caller.user_id, caller.team_ids);
  const [visible, read] = await Promise.all([
    deps.models.notifications.countDocuments({ $and: [{ audience: { $in: audiences } }, notExpired(now)] }),
    deps.models.reads.countDocuments({
      $and: [{ user_id: caller.user_id, audience: { $in: audiences } }, notExpired(now)],
    }),
  ]);
  return { total: Math.max(0, visible - read) };
}
