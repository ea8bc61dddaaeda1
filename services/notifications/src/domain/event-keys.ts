import type { notificationEventsV1 } from '@platform/contracts';
import { isDuplicateKeyError } from '@platform/mongo';
import { randomUUID } from 'node:crypto';
import type { EventKeyDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';

type Deps = Pick<NotificationsDependencies, 'models' | 'now'>;
type NotificationEvent = notificationEventsV1.NotificationEvent;

/**
 * True when a (bulk) write failed only on duplicate keys: another consumer, or a previous attempt,
 * already wrote those documents, which is what idempotency expects.
 */
export function failedOnlyOnDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const failures = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [error];
  return failures.length > 0 && failures.every(isDuplicateKeyError);
}

/**
 * The notification id each event's idempotency key stands for, fixed by the event's first
 * delivery: one unordered bulk of upserts (`$setOnInsert`, so an existing key keeps its id), then
 * one read of every key. Events must have distinct ids.
 */
export async function claimKeys(
  deps: Deps,
  events: readonly NotificationEvent[],
): Promise<Map<string, EventKeyDoc>> {
  if (events.length === 0) return new Map();
  const createdAt = deps.now();
  const upserts = events.map((event) => ({
    updateOne: {
      filter: { _id: event.id },
      update: {
        $setOnInsert: {
          notification_id: randomUUID(),
          type: event.type,
          completed_at: null,
          created_at: createdAt,
        },
      },
      upsert: true,
    },
  }));
  try {
    await deps.models.eventKeys.bulkWrite(upserts, { ordered: false });
  } catch (error) {
    // Two consumers raced to insert a key: the other one's document stands.
    if (!failedOnlyOnDuplicateKeys(error)) throw error;
  }
  const ids = events.map((event) => event.id);
  const keys = await deps.models.eventKeys.find({ _id: { $in: ids } }).lean<EventKeyDoc[]>();
  const byId = new Map(keys.map((key) => [key._id, key]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw new Error(`event key ${missing} vanished`);
  return byId;
}

/** The notifications of these keys exist and their deliveries were handed over. */
export async function completeKeys(deps: Deps, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await deps.models.eventKeys.updateMany({ _id: { $in: ids } }, { $set: { completed_at: deps.now() } });
}
