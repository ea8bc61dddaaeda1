import type { notificationsV1 } from '@platform/contracts';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal, RequestOrigin } from '@platform/grpc';
import { hasTeamRole, isGlobalAdmin } from '@platform/rbac';
import { randomUUID } from 'node:crypto';
import type { FilterQuery } from 'mongoose';
import type { NotificationDoc, ReadDoc } from '../data/models.js';
import type { NotificationsConfig } from '../config.js';
import type { NotificationsDependencies } from '../deps.js';
import { recordDeleted } from './inbox-read-model.js';
import { literalPattern } from './notification-types.js';
import { snapshotOf, toNotificationMessage } from './notification-view.js';
import { readPaging } from './paging.js';
import { requireTeamAdmin } from './team-authority.js';
import { notExpired } from './user-notifications.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'directory' | 'delivery' | 'logger' | 'inbox'>;
/** The list also needs how deep a page may reach. */
type ListDeps = Deps & { config: Pick<NotificationsConfig, 'NOTIFICATION_PAGE_WINDOW'> };

/** The admin list's filters, the closed sets by name. */
export type AdminListInput = Omit<notificationsV1.AdminListNotificationsRequest, 'scope' | 'level'> & {
  scope: string[];
  level: string[];
};

/**
 * Admin list. Global admins see everything; anyone else must name a team they administer and sees
 * only that team's `team` notifications, whatever `scope` says (`global` in `scope` 3001, no
 * `team_id` 1002, unknown team 4004, not OWNER/ADMIN 3003). `is_read` false, `read_at` null, `deliveries` filled.
 */
export async function adminListNotifications(
  deps: ListDeps,
  caller: Principal,
  request: AdminListInput,
  locale: string,
): Promise<notificationsV1.NotificationPage> {
  const paging = readPaging(request.page, request.page_size, deps.config.NOTIFICATION_PAGE_WINDOW);
  // Exact matches stay top-level equalities (served by indexes; FerretDB pushes only those down).
  const filter: FilterQuery<NotificationDoc> = {};
  const and: FilterQuery<NotificationDoc>[] = [];
  if (!isGlobalAdmin(caller)) {
    if (request.scope.includes('global')) throw new BusinessError(ErrorCode.INSUFFICIENT_PRIVILEGES);
    if (!request.team_id) throw BusinessError.named('notification_scope_requires_team');
    await requireTeamAdmin(deps, caller, request.team_id);
    // The team's own notifications only: a `user` one may carry the team id too (a message to one
    // of its managers), and is that user's, whatever `scope` the request names.
    filter.scope = 'team';
  } else {
    const scopes = [...new Set(request.scope)];
    if (scopes.length === 1) filter.scope = scopes[0]!;
    else if (scopes.length > 1) and.push({ scope: { $in: scopes } });
  }
  if (request.team_id) filter.team_id = request.team_id;
  if (request.user_id) filter.user_id = request.user_id;
  if (request.type) filter.type = request.type;
  const levels = [...new Set(request.level)];
  if (levels.length === 1) filter.level = levels[0]!;
  else if (levels.length > 1) and.push({ level: { $in: levels } });
  if (request.search) {
    const pattern = literalPattern(request.search);
    and.push({ $or: [{ title: pattern }, { content: pattern }, { type: pattern }] });
  }
  if (!request.include_expired) and.push(notExpired(deps.now()));
  if (and.length > 0) filter.$and = and;
  const [docs, total] = await Promise.all([
    deps.models.notifications
      .find(filter)
      .sort({ created_at: -1, _id: -1 })
      .skip(paging.skip)
      .limit(paging.pageSize)
      .lean<NotificationDoc[]>(),
    deps.models.notifications.countDocuments(filter),
  ]);
  const deliveries = await deps.delivery.deliveriesFor(
    docs.map((doc) => doc._id),
    locale,
  );
  return {
    items: docs.map((doc) => toNotificationMessage(doc, null, deliveries.get(doc._id) ?? [])),
    total,
    page: paging.page,
    page_size: paging.pageSize,
  };
}

/**
 * Delete with the audit record first: a failed audit write means no delete. `global` and `user`
 * notifications need a global admin (3001); `team` ones OWNER/ADMIN of that team (3003).
 */
export async function deleteNotification(
  deps: Deps,
  caller: Principal,
  id: string,
  origin: RequestOrigin,
): Promise<notificationsV1.DeletedNotification> {
  const doc = await deps.models.notifications.findById(id).lean<NotificationDoc>();
  if (!doc) throw BusinessError.named('notification_not_found');
  if (!isGlobalAdmin(caller)) {
    if (doc.scope !== 'team') throw new BusinessError(ErrorCode.INSUFFICIENT_PRIVILEGES);
    // The notification's own team; a team that is gone has no admins left (3003, not 4004).
    const membership = await deps.directory.teamMembership(doc.team_id ?? '', caller.user_id);
    if (!hasTeamRole(membership.role, 'ADMIN')) throw BusinessError.named('team_admin_required');
  }
  await deps.models.audit.create({
    _id: randomUUID(),
    action: 'notification.delete',
    notification_id: doc._id,
    actor_user_id: caller.user_id,
    actor_username: caller.username,
    ip: origin.ip,
    user_agent: origin.userAgent,
    request_id: origin.requestId,
    at: deps.now(),
    snapshot: snapshotOf(doc),
  });
  const readers = await deps.models.reads
    .find({ notification_id: doc._id }, { user_id: 1 })
    .lean<Pick<ReadDoc, 'user_id'>[]>();
  await deps.models.notifications.deleteOne({ _id: doc._id });
  // Read records of a deleted notification would only skew the unread count.
  await deps.models.reads.deleteMany({ notification_id: doc._id });
  await recordDeleted(
    deps,
    doc,
    readers.map((read) => read.user_id),
  );
  return { id: doc._id };
}
