import type { notificationsV1 } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { isDuplicateKeyError } from '@platform/mongo';
import type { FilterQuery } from 'mongoose';
import { audiencesOf, type NotificationDoc, type ReadDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { recordRead } from './inbox-read-model.js';
import { audienceFilter, readsOf } from './visible-query.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now' | 'inbox' | 'logger'>;

const BATCH = 1000;

/** Inserts read records, counting only the new ones: a pair already read is a duplicate `_id`. */
async function insertReads(deps: Deps, records: ReadDoc[]): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH);
    try {
      // The driver types `_id` as an ObjectId; ours are strings (`<notification>:<user>`).
      const result = await deps.models.reads.collection.insertMany(batch as never[], { ordered: false });
      inserted += result.insertedCount;
    } catch (error) {
      // Unordered: every non-duplicate of the batch was written; only duplicates may fail.
      const bulk = error as {
        insertedCount?: number;
        result?: { insertedCount?: number };
        writeErrors?: unknown;
      };
      const errors = writeErrorsOf(error);
      if (errors.length === 0 || !errors.every(isDuplicateKeyError)) throw error;
      inserted += bulk.insertedCount ?? bulk.result?.insertedCount ?? batch.length - errors.length;
    }
  }
  return inserted;
}

function writeErrorsOf(error: unknown): unknown[] {
  const raw = (error as { writeErrors?: unknown }).writeErrors;
  if (Array.isArray(raw)) return raw as unknown[];
  if (raw) return [raw];
  return isDuplicateKeyError(error) ? [error] : [];
}

/**
 * Marks notifications read for the caller. The visibility scope applies, expired notifications
 * included; `updated` counts only newly created read records (unique per pair by `_id`, so
 * concurrent calls never create two).
 */
export async function markRead(
  deps: Deps,
  caller: Principal,
  request: notificationsV1.MarkReadRequest,
): Promise<notificationsV1.MarkReadResponse> {
  if (!request.mark_all && request.notification_ids.length === 0) {
    throw BusinessError.named('validation_error');
  }
  const audiences = audiencesOf(caller.user_id, caller.team_ids);
  const wanted: FilterQuery<NotificationDoc>[] = request.mark_all
    ? []
    : [{ _id: { $in: [...new Set(request.notification_ids)] } }];
  const alreadyRead = new Set((await readsOf(deps, caller.user_id)).map((read) => read.notification_id));
  // One query per audience (see audienceFilter): the visibility scope, expired included.
  const visible = (
    await Promise.all(
      audiences.map((audience) =>
        deps.models.notifications
          .find(audienceFilter(audience, {}, wanted), { _id: 1, audience: 1, expires_at: 1 })
          .lean<Pick<NotificationDoc, '_id' | 'audience' | 'expires_at'>[]>(),
      ),
    )
  ).flat();
  const now = deps.now();
  const records = visible
    .filter((doc) => !alreadyRead.has(doc._id))
    .map((doc) => ({
      _id: `${doc._id}:${caller.user_id}`,
      notification_id: doc._id,
      user_id: caller.user_id,
      audience: doc.audience,
      expires_at: doc.expires_at,
      read_at: now,
    }));
  const updated = await insertReads(deps, records);
  await recordRead(deps, caller.user_id, records);
  return { updated };
}
