import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import { closeMongo, connectMongo, isDuplicateKeyError, syncIndexes, type Connection } from '../src/index.js';

const BASE_URL = process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:57017/platform_test';
const logger = createLogger('mongo-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const run = randomUUID().slice(0, 8);

/** The test URL with its database replaced by a per-run one, so reruns start empty. */
function runUrl(): string {
  const url = new URL(BASE_URL);
  url.pathname = `/mongo_pkg_${run}`;
  return url.toString();
}

interface Notification {
  userId: string;
  idempotencyKey: string;
  title: string;
  read: boolean;
  createdAt?: Date;
}

const notificationSchema = new mongoose.Schema<Notification>(
  {
    userId: { type: String, required: true, index: true },
    idempotencyKey: { type: String, required: true, unique: true },
    title: { type: String, required: true },
    read: { type: Boolean, default: false },
  },
  { timestamps: true },
);
notificationSchema.index({ userId: 1, createdAt: -1 });

describe('@platform/mongo', () => {
  let conn: Connection;

  beforeAll(async () => {
    conn = await connectMongo(runUrl(), { logger, appName: 'mongo-pkg-test' });
  });

  afterAll(async () => {
    if (conn) {
      await conn.dropDatabase().catch(() => undefined);
      await closeMongo(conn);
      await closeMongo(conn); // idempotent
    }
  });

  it('creates the declared indexes, including the unique one', async () => {
    const Notifications = conn.model('Notification', notificationSchema);
    const first = await syncIndexes(conn, { logger });
    expect(first.created.sort()).toEqual([
      'notifications.idempotencyKey_1',
      'notifications.userId_1',
      'notifications.userId_1_createdAt_-1',
    ]);
    const second = await syncIndexes(conn, { logger });
    expect(second).toEqual({ created: [], dropped: [], skipped: [] });
    const indexes = await Notifications.collection.indexes();
    const unique = indexes.find((i) => i.key.idempotencyKey === 1);
    expect(unique?.unique).toBe(true);
    expect(indexes.some((i) => i.key.userId === 1 && i.key.createdAt === -1)).toBe(true);
  });

  it('skips non-unique indexes the server does not implement and drops stale ones', async () => {
    const schema = new mongoose.Schema({ key: String, expiresAt: Date });
    schema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 }); // TTL: not implemented by FerretDB 1.24
    const Codes = conn.model('Code', schema);
    await Codes.createCollection();
    await Codes.collection.createIndex({ key: 1 }, { name: 'stale_key' });
    const report = await syncIndexes(conn, {
      logger: createLogger('mongo-test', 'silent'),
      modelNames: ['Code'],
    });
    const ttl = 'expiresAt_1';
    const handled = [...report.created, ...report.skipped.map((s) => `${s.collection}.${s.name}`)];
    expect(handled).toEqual([`codes.${ttl}`]);
    expect(report.dropped).toEqual(['codes.stale_key']);
  });

  it('creates, reads, updates and deletes documents', async () => {
    const Notifications = conn.model<Notification>('Notification');
    const created = await Notifications.create({ userId: 'u1', idempotencyKey: 'k1', title: 'Hello' });
    expect(created.read).toBe(false);
    expect(created.createdAt).toBeInstanceOf(Date);

    const found = await Notifications.findOne({ idempotencyKey: 'k1' }).lean();
    expect(found).toMatchObject({ userId: 'u1', title: 'Hello', read: false });

    const updated = await Notifications.findOneAndUpdate(
      { _id: created._id },
      { $set: { read: true } },
      { new: true },
    ).lean();
    expect(updated?.read).toBe(true);
    expect(await Notifications.countDocuments({ userId: 'u1', read: true })).toBe(1);

    const result = await Notifications.deleteOne({ _id: created._id });
    expect(result.deletedCount).toBe(1);
    expect(await Notifications.findById(created._id)).toBeNull();
  });

  it('rejects a duplicate insert with the duplicate-key error (11000)', async () => {
    const Notifications = conn.model<Notification>('Notification');
    await Notifications.create({ userId: 'u2', idempotencyKey: 'dup', title: 'first' });
    const error = await Notifications.create({ userId: 'u2', idempotencyKey: 'dup', title: 'second' }).catch(
      (err: unknown) => err,
    );
    expect(isDuplicateKeyError(error)).toBe(true);
    expect((error as { code: number }).code).toBe(11000);
    // an upsert keyed on the unique field is the idempotent way to insert
    await Notifications.updateOne(
      { idempotencyKey: 'dup' },
      { $setOnInsert: { userId: 'u2', title: 'third' } },
      { upsert: true },
    );
    expect(await Notifications.countDocuments({ idempotencyKey: 'dup' })).toBe(1);
  });

  it('fails fast when the server is unreachable', async () => {
    const started = Date.now();
    await expect(
      connectMongo('mongodb://127.0.0.1:1/none', { logger, serverSelectionTimeoutMs: 500 }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
