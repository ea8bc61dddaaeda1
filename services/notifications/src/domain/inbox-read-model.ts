import { randomUUID } from 'node:crypto';
import {
  audienceAdd,
  parseReaderValue,
  readerAdd,
  readerValue,
  removal,
  type AudienceTop,
  type StagedRow,
  type Unit,
} from '../data/inbox-index.js';
import type { NotificationDoc, ReadDoc } from '../data/models.js';
import type { NotificationsDependencies } from '../deps.js';
import { newerFirst } from './visible-query.js';

/**
 * The inbox read model (data/inbox-index.ts) as the use cases see it. Reads answer null whenever the
 * model cannot answer for sure (Redis unreachable, a build running elsewhere), and the caller then
 * asks MongoDB; writes go to MongoDB first and then here, and a write that cannot reach Redis moves
 * the epoch, so every replica's next read stops trusting what was built before.
 */
type Deps = Pick<NotificationsDependencies, 'models' | 'inbox' | 'logger'>;

const EPOCH_ID = 'inbox';

async function currentEpoch(deps: Deps): Promise<string> {
  const doc = await deps.models.inboxEpoch.findById(EPOCH_ID).lean();
  return doc?.value ?? 'initial';
}

/** Makes every unit built for this epoch (building the missing ones); false when one could not be. */
async function ensureBuilt(deps: Deps, units: readonly Unit[], epoch: string): Promise<boolean> {
  const ready = await deps.inbox.ready(units, epoch);
  const built = await Promise.all(units.map((unit, i) => ready[i] || build(deps, unit, epoch)));
  return built.every(Boolean);
}

async function build(deps: Deps, unit: Unit, epoch: string): Promise<boolean> {
  const token = await deps.inbox.beginBuild(unit);
  if (!token) return false;
  // The scan starts after the build began: a write MongoDB gets after it is in the build's log.
  const rows: StagedRow[] =
    unit.kind === 'a'
      ? (
          await deps.models.notifications
            .find({ audience: unit.name }, { _id: 1, created_at: 1, expires_at: 1 })
            .lean<Pick<NotificationDoc, '_id' | 'created_at' | 'expires_at'>[]>()
        ).map((doc) => ({
          kind: 'audience',
          id: doc._id,
          created: doc.created_at.getTime(),
          expires: doc.expires_at?.getTime() ?? null,
        }))
      : (
          await deps.models.reads
            .find({ user_id: unit.name }, { notification_id: 1, audience: 1, expires_at: 1, read_at: 1 })
            .lean<Pick<ReadDoc, 'notification_id' | 'audience' | 'expires_at' | 'read_at'>[]>()
        ).map((read) => ({
          kind: 'reader',
          id: read.notification_id,
          value: readerValue(read.audience, read.expires_at?.getTime() ?? null, read.read_at.getTime()),
        }));
  const finished = await deps.inbox.finishBuild(unit, token, epoch, rows);
  deps.logger.debug({ unit: `${unit.kind}:${unit.name}`, rows: rows.length, finished }, 'inbox unit built');
  return finished;
}

interface CallerView {
  /** Per audience: the visible count and the newest `wanted` visible ids. */
  tops: AudienceTop[];
  /** The caller's reader rows (id → value). */
  rows: Map<string, string>;
}

/**
 * The caller's audiences and reader row from the read model, building what is missing; null (ask
 * MongoDB) when it cannot answer for sure.
 */
async function callerView(
  deps: Deps,
  audiences: readonly string[],
  userId: string,
  now: Date,
  wanted: number,
): Promise<CallerView | null> {
  try {
    const epoch = await currentEpoch(deps);
    const units: Unit[] = [
      ...audiences.map((name) => ({ kind: 'a' as const, name })),
      { kind: 'r', name: userId },
    ];
    if (!(await ensureBuilt(deps, units, epoch))) return null;
    const [tops, rows] = await Promise.all([
      Promise.all(
        audiences.map((audience) => deps.inbox.audienceTop(audience, epoch, now.getTime(), wanted)),
      ),
      deps.inbox.readerRows(userId, epoch),
    ]);
    // a unit expired or was rebuilt between the check and the read
    if (rows === null || tops.some((top) => top === null)) return null;
    return { tops: tops as AudienceTop[], rows };
  } catch (error) {
    deps.logger.warn({ err: error }, 'inbox read model unavailable; answering from MongoDB');
    return null;
  }
}

export interface IndexedPage {
  /** The newest `wanted` visible notification ids across the audiences, newest first. */
  ids: string[];
  total: number;
  /** read_at (ms) of the caller's read records of those ids. */
  readAt: Map<string, number>;
}

/** First `wanted` visible notifications over the audiences (no filters), or null. */
export async function indexedPage(
  deps: Deps,
  audiences: readonly string[],
  userId: string,
  now: Date,
  wanted: number,
): Promise<IndexedPage | null> {
  const view = await callerView(deps, audiences, userId, now, wanted);
  if (!view) return null;
  const ids = view.tops
    .flatMap((top) => top.top)
    .sort(([aId, aMs], [bId, bMs]) => newerFirst(aMs, aId, bMs, bId)) // as the MongoDB path sorts
    .slice(0, wanted)
    .map(([id]) => id);
  const readAt = new Map<string, number>();
  for (const id of ids) {
    const value = view.rows.get(id);
    if (value !== undefined) readAt.set(id, parseReaderValue(value).readAt);
  }
  return { ids, total: view.tops.reduce((sum, top) => sum + top.count, 0), readAt };
}

/** Visible, unexpired, unread: the audiences' counts minus the caller's visible unexpired reads. */
export async function indexedUnreadCount(
  deps: Deps,
  audiences: readonly string[],
  userId: string,
  now: Date,
): Promise<number | null> {
  const view = await callerView(deps, audiences, userId, now, 0);
  if (!view) return null;
  const visible = new Set(audiences);
  let read = 0;
  for (const value of view.rows.values()) {
    const row = parseReaderValue(value);
    if (visible.has(row.audience) && (row.expires === null || row.expires > now.getTime())) read += 1;
  }
  return Math.max(0, view.tops.reduce((sum, top) => sum + top.count, 0) - read);
}

/** Applies writes MongoDB has taken; when Redis does not take them, the epoch moves. */
async function recordWrites(
  deps: Deps,
  writes: ReadonlyMap<string, { unit: Unit; ops: string[] }>,
): Promise<void> {
  try {
    await Promise.all([...writes.values()].map(({ unit, ops }) => deps.inbox.write(unit, ops)));
  } catch (error) {
    deps.logger.warn({ err: error }, 'inbox read model missed a write; moving its epoch');
    await moveEpoch(deps);
  }
}

/** Every replica's next read stops trusting what was built before and rebuilds what it needs. */
async function moveEpoch(deps: Deps): Promise<void> {
  try {
    await deps.models.inboxEpoch.updateOne(
      { _id: EPOCH_ID },
      { $set: { value: randomUUID() } },
      { upsert: true },
    );
  } catch (epochError) {
    // Units stay trusted until their TTL (INBOX_INDEX_TTL_MS) runs out.
    deps.logger.error({ err: epochError }, 'inbox read model epoch could not be moved');
  }
}

/**
 * Moves the epoch whenever the connection to Redis comes back. A Redis that restarted from an
 * older snapshot has lost the writes made after it, but its units' markers came back with it; a
 * connection that dropped may have lost writes this process never learnt the fate of. Both
 * rebuild from MongoDB instead. Returns the unsubscribe function.
 */
export function moveEpochOnReconnect(deps: Deps & Pick<NotificationsDependencies, 'redis'>): () => void {
  let connectedBefore = deps.redis.status === 'ready';
  const onReady = () => {
    if (connectedBefore) {
      deps.logger.info('redis reconnected; the inbox read model is rebuilt from MongoDB');
      void moveEpoch(deps);
    }
    connectedBefore = true;
  };
  deps.redis.on('ready', onReady);
  return () => deps.redis.off('ready', onReady);
}

function collect(writes: Map<string, { unit: Unit; ops: string[] }>, unit: Unit, op: string): void {
  const key = `${unit.kind}:${unit.name}`;
  const entry = writes.get(key) ?? { unit, ops: [] };
  entry.ops.push(op);
  writes.set(key, entry);
}

/** New notifications (stored in MongoDB). */
export async function recordCreated(deps: Deps, docs: readonly NotificationDoc[]): Promise<void> {
  const writes = new Map<string, { unit: Unit; ops: string[] }>();
  for (const doc of docs) {
    collect(
      writes,
      { kind: 'a', name: doc.audience },
      audienceAdd(doc._id, doc.created_at.getTime(), doc.expires_at?.getTime() ?? null),
    );
  }
  await recordWrites(deps, writes);
}

/** New read records of one user (stored in MongoDB; duplicates are harmless). */
export async function recordRead(deps: Deps, userId: string, reads: readonly ReadDoc[]): Promise<void> {
  const writes = new Map<string, { unit: Unit; ops: string[] }>();
  for (const read of reads) {
    const value = readerValue(read.audience, read.expires_at?.getTime() ?? null, read.read_at.getTime());
    collect(writes, { kind: 'r', name: userId }, readerAdd(read.notification_id, value));
  }
  await recordWrites(deps, writes);
}

/** A deleted notification and the users whose read records went with it. */
export async function recordDeleted(
  deps: Deps,
  doc: NotificationDoc,
  readerIds: readonly string[],
): Promise<void> {
  const writes = new Map<string, { unit: Unit; ops: string[] }>();
  collect(writes, { kind: 'a', name: doc.audience }, removal(doc._id));
  for (const userId of readerIds) collect(writes, { kind: 'r', name: userId }, removal(doc._id));
  await recordWrites(deps, writes);
}
