import type { FilterQuery } from 'mongoose';
import type { NotificationDoc, ReadDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';

type Deps = Pick<NotificationsDependencies, 'models'>;

/** Not expired at `now` (no `expires_at`, or one still ahead). */
export function notExpired(now: Date): FilterQuery<NotificationDoc> {
  return { $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

/**
 * One audience's part of a visibility query. The audience (and any exact-match filters) stay
 * top-level equalities, never `$in`: MongoDB serves each with the `{audience, created_at}` index,
 * and FerretDB 1.24 can push only top-level equalities down to Postgres (an `$in` makes it read
 * and decode the whole collection). The remaining conditions then apply to one audience's rows.
 */
export function audienceFilter(
  audience: string,
  equal: Partial<Pick<NotificationDoc, 'type' | 'level'>>,
  rest: FilterQuery<NotificationDoc>[],
): FilterQuery<NotificationDoc> {
  const filter: FilterQuery<NotificationDoc> = { audience, ...equal };
  if (rest.length > 0) filter.$and = rest;
  return filter;
}

/** Newest first by (created ms, id): the id breaks ties so pages never overlap. */
export function newerFirst(aMs: number, aId: string, bMs: number, bId: string): number {
  const byTime = bMs - aMs;
  return byTime !== 0 ? byTime : aId < bId ? 1 : aId > bId ? -1 : 0;
}

/** Newest first; the id breaks ties so pages never overlap. */
export function newestFirst(a: NotificationDoc, b: NotificationDoc): number {
  return newerFirst(a.created_at.getTime(), a._id, b.created_at.getTime(), b._id);
}

/**
 * One page over several audiences: each audience's first `skip + limit` rows (index order), merged;
 * the total is the sum of the per-audience counts.
 */
export async function pageOverAudiences(
  deps: Deps,
  filters: FilterQuery<NotificationDoc>[],
  skip: number,
  limit: number,
): Promise<{ docs: NotificationDoc[]; total: number }> {
  const parts = await Promise.all(
    filters.map(async (filter) => {
      const [docs, count] = await Promise.all([
        deps.models.notifications
          .find(filter)
          .sort({ created_at: -1, _id: -1 })
          .limit(skip + limit)
          .lean<NotificationDoc[]>(),
        deps.models.notifications.countDocuments(filter),
      ]);
      return { docs, count };
    }),
  );
  const merged = parts.flatMap((part) => part.docs).sort(newestFirst);
  return {
    docs: merged.slice(skip, skip + limit),
    total: parts.reduce((sum, part) => sum + part.count, 0),
  };
}

/** The caller's read records (one equality on `user_id`), for the unread count and unread_only. */
export async function readsOf(
  deps: Deps,
  userId: string,
): Promise<Pick<ReadDoc, 'notification_id' | 'audience' | 'expires_at'>[]> {
  return deps.models.reads
    .find({ user_id: userId }, { notification_id: 1, audience: 1, expires_at: 1 })
    .lean<Pick<ReadDoc, 'notification_id' | 'audience' | 'expires_at'>[]>();
}
