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
  // The driver's WriteError carries `code`; mongoose's insertMany hands them on as `{ err, index }`.
  return (
    failures.length > 0 &&
    failures.every(
      (failure) => isDuplicateKeyError(failure) || isDuplicateKeyError((failure as { err?: unknown }).err),
    )
  );
}

/**
 * The notification id each event's idempotency key stands for, fixed by the event's first
 * delivery: one unordered insert of a fresh key per event (the usual case costs no read); when some
 * already existed (a redelivery, or another consumer raced us) every key is read back, so an
 * existing key keeps its id. Events must have distinct ids.
 */
export async function claimKeys(
  deps: Deps,
  events: readonly NotificationEvent[],
): Promise<Map<string, EventKeyDoc>> {
  const createdAt = deps.now();
  const fresh: EventKeyDoc[] = events.map((event) => ({
    _id: event.id,
    notification_id: randomUUID(),
    type: event.type,
    completed_at: null,
    created_at: createdAt,
  }));
  if (fresh.length === 0) return new Map();
  try {
    // lean: built here with every field typed, so mongoose's hydration per document buys nothing.
    await deps.models.eventKeys.insertMany(fresh, { ordered: false, lean: true });
    return new Map(fresh.map((key) => [key._id, key]));
  } catch (error) {
    if (!failedOnlyOnDuplicateKeys(error)) throw error;
  }
  const ids = fresh.map((key) => key._id);
  const keys = await deps.models.eventKeys.find({ _id: { $in: ids } }).lean<EventKeyDoc[]>();
  const byId = new Map(keys.map((key) => [key._id, key]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw new Error(`event key ${missing} vanished`);
  return byId;
}

/** The notifications of these keys exist and their deliveries were handed over. */
export async function completeKeys(deps: Deps, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const completedAt = deps.now();
  // One command with one update per key by `_id` equality, not an `$in`: under a trickle of small
  // batches the `$in` form cost FerretDB 4.2 ms per event against 2.0 ms (bench notification-events).
  await deps.models.eventKeys.bulkWrite(
    ids.map((id) => ({
      updateOne: { filter: { _id: id }, update: { $set: { completed_at: completedAt } } },
    })),
    { ordered: false },
  );
}
