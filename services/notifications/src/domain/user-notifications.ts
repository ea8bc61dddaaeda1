import type { notificationsV1 } from '@platform/contracts';
import type { Principal } from '@platform/grpc';
import type { FilterQuery } from 'mongoose';
import { audiencesOf, type NotificationDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { literalPattern } from './notification-types.js';
import { toNotificationMessage } from './notification-view.js';
import { readPaging, readTime } from './paging.js';
import { audienceFilter, notExpired, pageOverAudiences, readsOf } from './visible-query.js';

export { notExpired } from './visible-query.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now'>;

const SCOPE_PREFIX = { global: 'g', team: 't:', user: 'u:' } as const;

/** The audiences the caller sees (global, themselves, their teams), narrowed to one scope. */
function visibleAudiences(caller: Principal, scope: string): string[] {
  const all = audiencesOf(caller.user_id, caller.team_ids);
  const prefix = SCOPE_PREFIX[scope as keyof typeof SCOPE_PREFIX];
  return prefix ? all.filter((audience) => audience.startsWith(prefix)) : all;
}

/** User list: visible (global, own, own teams), not expired, every filter, newest first. */
export async function listNotifications(
  deps: Deps,
  caller: Principal,
  request: notificationsV1.ListNotificationsRequest,
): Promise<notificationsV1.NotificationPage> {
  const paging = readPaging(request.page, request.page_size);
  const now = deps.now();
  const equal = {
    ...(request.type && { type: request.type }),
    ...(request.level && { level: request.level }),
  };
  const rest: FilterQuery<NotificationDoc>[] = [notExpired(now)];
  if (request.search) {
    const pattern = literalPattern(request.search);
    rest.push({ $or: [{ title: pattern }, { content: pattern }, { type: pattern }] });
  }
  const from = readTime('created_from', request.created_from);
  const to = readTime('created_to', request.created_to);
  if (from || to) rest.push({ created_at: { ...(from && { $gte: from }), ...(to && { $lte: to }) } });
  const reads = await readsOf(deps, caller.user_id);
  if (request.unread_only && reads.length > 0) {
    rest.push({ _id: { $nin: reads.map((read) => read.notification_id) } });
  }
  const audiences = visibleAudiences(caller, request.scope);
  const { docs, total } = await pageOverAudiences(
    deps,
    audiences.map((audience) => audienceFilter(audience, equal, rest)),
    paging.skip,
    paging.pageSize,
  );
  const readAt = new Map(
    (
      await deps.models.reads
        .find(
          { user_id: caller.user_id, notification_id: { $in: docs.map((doc) => doc._id) } },
          { notification_id: 1, read_at: 1 },
        )
        .lean()
    ).map((read) => [read.notification_id, read.read_at]),
  );
  return {
    items: docs.map((doc) => toNotificationMessage(doc, readAt.get(doc._id) ?? null)),
    total,
    page: paging.page,
    page_size: paging.pageSize,
  };
}

/**
 * Visible, not expired, not read by the caller: the visible count minus the caller's read records
 * of visible, unexpired notifications. A team or global notification is one document; read state
 * is one record per (notification, user) that read it, so nothing grows with the audience size.
 */
export async function unreadCount(deps: Deps, caller: Principal): Promise<notificationsV1.UnreadCount> {
  const now = deps.now();
  const audiences = visibleAudiences(caller, '');
  const [counts, reads] = await Promise.all([
    Promise.all(
      audiences.map((audience) =>
        deps.models.notifications.countDocuments(audienceFilter(audience, {}, [notExpired(now)])),
      ),
    ),
    readsOf(deps, caller.user_id),
  ]);
  const visible = new Set(audiences);
  const read = reads.filter(
    (record) => visible.has(record.audience) && (record.expires_at === null || record.expires_at > now),
  ).length;
  return { total: Math.max(0, counts.reduce((sum, count) => sum + count, 0) - read) };
}
