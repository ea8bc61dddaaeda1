import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import {
  createKafka,
  createProducer,
  ensureTopics,
  groupMembers,
  pendingCounts,
  queueTopic,
  readTaskStates,
  scanPending,
  TaskQueue,
  taskStateKey,
  TaskWorker,
  workerGroup,
  type KafkaClient,
  type Producer,
} from '../src/index.js';

const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:59092';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0';
const run = randomUUID().slice(0, 8);
const prefix = `test-qs-${run}.`;
const logger = createLogger('kafka-queue-state-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const fast = { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 10_000 };

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await expect.poll(condition, { timeout: timeoutMs, interval: 50 }).toBe(true);
}

const taskName = (value: string | null) => (JSON.parse(value ?? '{}') as { task?: string }).task;

describe('@platform/kafka queue state', () => {
  let kafka: KafkaClient;
  let producer: Producer;
  let redis: Redis;
  let queue: TaskQueue;
  const raw = new kafkajs.Kafka({ brokers: BROKERS.split(','), logLevel: kafkajs.logLevel.NOTHING });

  beforeAll(async () => {
    kafka = createKafka({ brokers: BROKERS, clientId: `kafka-qs-${run}`, logger });
    producer = createProducer(kafka);
    redis = createRedis(REDIS_URL, { logger });
    queue = new TaskQueue(producer, { topicPrefix: prefix });
    await ensureTopics(kafka, [
      { topic: queueTopic('default', prefix), partitions: 1 },
      { topic: queueTopic('knowledge', prefix), partitions: 3 },
      { topic: queueTopic('agent', prefix), partitions: 1 },
      { topic: queueTopic('sandbox', prefix), partitions: 1 },
    ]);
  });

  afterAll(async () => {
    await kafka?.disconnect();
    const admin = raw.admin();
    await admin.connect();
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (mine.length) await admin.deleteTopics({ topics: mine }).catch(() => undefined);
    const groups = (await admin.listGroups()).groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(prefix));
    if (groups.length) await admin.deleteGroups(groups).catch(() => undefined);
    await admin.disconnect();
    const keys = await redis.keys(`taskstate:${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await closeRedis(redis);
  });

  it('groupMembers counts the members of each worker group, 0 for an unknown group', async () => {
    const workers = [1, 2].map(() =>
      new TaskWorker(kafka, { queue: 'agent', topicPrefix: prefix, redis, logger, ...fast }).register(
        'noop',
        () => undefined,
      ),
    );
    await Promise.all(workers.map((w) => w.start()));
    await Promise.all(workers.map((w) => w.ready));
    const group = workerGroup('agent', prefix);
    const unknown = `${prefix}workers.nobody`;
    await waitFor(async () => (await groupMembers(kafka, [group]))[group] === 2);
    expect(await groupMembers(kafka, [group, unknown])).toEqual({ [group]: 2, [unknown]: 0 });
    await workers[0]!.stop();
    await waitFor(async () => (await groupMembers(kafka, [group]))[group] === 1);
    await workers[1]!.stop();
  });

  it('scanPending counts pending tasks from the committed offset, up to the cap, the rest unscanned', async () => {
    const topic = queueTopic('knowledge', prefix);
    const group = workerGroup('knowledge', prefix);
    const names = ['doc.index', 'doc.delete', 'doc.reembed'];
    for (let i = 0; i < 1203; i += 1)
      await queue.enqueue('knowledge', names[i % 3]!, { i }, { key: `k${i % 7}` });
    const uncapped = await scanPending(kafka, { groupId: group, topic, classify: taskName });
    expect(uncapped).toEqual({
      pending: 1203,
      scanned: 1203,
      unscanned: 0,
      counts: { 'doc.index': 401, 'doc.delete': 401, 'doc.reembed': 401 },
    });
    const capped = await scanPending(kafka, { groupId: group, topic, classify: taskName, cap: 1000 });
    expect(capped.pending).toBe(1203);
    expect(capped.scanned).toBe(1000);
    expect(capped.unscanned).toBe(203);
    expect(Object.values(capped.counts).reduce((a, b) => a + b, 0)).toBe(1000);
    // Nobody consumed: the scans used throw-away groups and left none behind.
    const admin = raw.admin();
    await admin.connect();
    const left = (await admin.listGroups()).groups.filter((g) => g.groupId.startsWith(`${group}.scan.`));
    await admin.disconnect();
    expect(left).toEqual([]);
  });

  it('scanPending starts at the group position and reads an unknown topic as empty', async () => {
    const topic = queueTopic('default', prefix);
    const group = workerGroup('default', prefix);
    for (let i = 0; i < 10; i += 1)
      await queue.enqueue('default', i < 4 ? 'email.send' : 'channel.deliver', { i });
    const admin = raw.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '4' }] });
    await admin.disconnect();
    expect(await scanPending(kafka, { groupId: group, topic, classify: taskName })).toEqual({
      pending: 6,
      scanned: 6,
      unscanned: 0,
      counts: { 'channel.deliver': 6 },
    });
    const missing = `${prefix}queue.never-created`;
    expect(
      await pendingCounts(kafka, [
        { groupId: group, topic },
        { groupId: group, topic: missing },
      ]),
    ).toEqual([6, 0]);
    expect(await scanPending(kafka, { groupId: group, topic: missing, classify: taskName })).toEqual({
      pending: 0,
      scanned: 0,
      unscanned: 0,
      counts: {},
    });
  });

  it('task workers report active, reserved and scheduled tasks in Redis; stale reports drop out', async () => {
    const topic = queueTopic('sandbox', prefix);
    for (let i = 0; i < 3; i += 1) await queue.enqueue('sandbox', 'sandbox.run', { i });
    await queue.enqueue('sandbox', 'sandbox.flaky', {});
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    const worker = new TaskWorker(kafka, {
      queue: 'sandbox',
      topicPrefix: prefix,
      redis,
      logger,
      retryBackoffMs: 120_000,
      maxRetryBackoffMs: 120_000,
      ...fast,
    })
      .register('sandbox.run', async () => {
        running += 1;
        await gate;
      })
      .register('sandbox.flaky', () => {
        throw new Error('not yet');
      });
    await worker.start();
    // One partition, one at a time: the first task runs, the other three wait behind it.
    await waitFor(() => running === 1);
    await waitFor(async () => (await readTaskStates(redis, [topic]))[0]!.active === 1);
    expect((await readTaskStates(redis, [topic]))[0]).toEqual({ active: 1, reserved: 3, scheduled: 0 });
    release();
    await waitFor(async () => (await readTaskStates(redis, [topic]))[0]!.scheduled === 1);
    expect((await readTaskStates(redis, [topic]))[0]).toEqual({ active: 0, reserved: 0, scheduled: 1 });

    // A worker that died without a word: its report stops counting once expired, and is removed.
    await redis.hset(
      taskStateKey(topic),
      'dead-worker',
      JSON.stringify({ active: 5, reserved: 5, scheduled: 5, expires_at: Date.now() - 1 }),
    );
    expect((await readTaskStates(redis, [topic]))[0]).toEqual({ active: 0, reserved: 0, scheduled: 1 });
    expect(await redis.hexists(taskStateKey(topic), 'dead-worker')).toBe(0);

    await worker.stop();
    expect((await readTaskStates(redis, [topic]))[0]).toEqual({ active: 0, reserved: 0, scheduled: 0 });
  });
});
