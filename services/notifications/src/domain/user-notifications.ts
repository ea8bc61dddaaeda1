import type { notificationsV1 } from '@platform/contracts';
import type { Principal } from '@platform/grpc';
import type { FilterQuery } from 'mongoose';
import { audiencesOf, type NotificationDoc } from '../data/models.js';
import type { NotificationsConfig } from '../config.js';
import type { NotificationsDependencies } from '../deps.js';
import { indexedPage, indexedUnreadCount } from './inbox-read-model.js';
import { literalPattern } from './notification-types.js';
import { toNotificationMessage } from './notification-view.js';
import { readPaging, readTime } from './paging.js';
import { audienceFilter, notExpired, pageOverAudiences, readsOf } from './visible-query.js';

export { notExpired } from './visible-query.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'inbox' | 'logger'>;
/** The list also needs how deep a page may reach. */
type ListDeps = Deps & { config: Pick<NotificationsConfig, 'NOTIFICATION_PAGE_WINDOW'> };

const SCOPE_PREFIX = { global: 'g', team: 't:', user: 'u:' } as const;

/** The audiences the caller sees (global, themselves, their teams), narrowed to one scope. */
function visibleAudiences(caller: Principal, scope: string): string[] {
  const all = audiencesOf(caller.user_id, caller.team_ids);
  const prefix = SCOPE_PREFIX[scope as keyof typeof SCOPE_PREFIX];
  return prefix ? all.filter((audience) => audience.startsWith(prefix)) : all;
}

/** The user list's filters, the closed sets by name ('' = any). */
export type ListNotificationsInput = Omit<notificationsV1.ListNotificationsRequest, 'scope' | 'level'> & {
  scope: string;
  level: string;
};

/** User list: visible (global, own, own teams), not expired, every filter, newest first. */
export async function listNotifications(
  deps: ListDeps,
  caller: Principal,
  request: ListNotificationsInput,
): Promise<notificationsV1.NotificationPage> {
  const paging = readPaging(request.page, request.page_size, deps.config.NOTIFICATION_PAGE_WINDOW);
  const now = deps.now();
  const unfiltered =
    !request.type &&
    !request.level &&
    !request.search &&
    !request.unread_only &&
    !request.created_from &&
    !request.created_to;
  if (unfiltered) {
    const page = await pageFromReadModel(deps, caller, request.scope, paging, now);
    if (page) return page;
  }
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

/** The unfiltered list from the inbox read model (null: ask MongoDB); the page's documents by id. */
async function pageFromReadModel(
  deps: Deps,
  caller: Principal,
  scope: string,
  paging: ReturnType<typeof readPaging>,
  now: Date,
): Promise<notificationsV1.NotificationPage | null> {
  const indexed = await indexedPage(
    deps,
    visibleAudiences(caller, scope),
    caller.user_id,
    now,
    paging.skip + paging.pageSize,
  );
  if (!indexed) return null;
  // One `_id` equality each: FerretDB 1.24 cannot push `_id: {$in}` down (docs/notifications.md).
  const docs = await Promise.all(
    indexed.ids
      .slice(paging.skip)
      .map((id) => deps.models.notifications.findById(id).lean<NotificationDoc>()),
  );
  return {
    items: docs
      // a notification deleted since the page was read is left out
      .filter((doc): doc is NotificationDoc => doc !== null)
      .map((doc) => {
        const readAt = indexed.readAt.get(doc._id);
        return toNotificationMessage(doc, readAt === undefined ? null : new Date(readAt));
      }),
    total: indexed.total,
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
  const indexed = await indexedUnreadCount(deps, audiences, caller.user_id, now);
  if (indexed !== null) return { total: indexed };
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
