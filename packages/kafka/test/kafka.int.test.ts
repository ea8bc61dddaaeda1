import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, requestContext } from '@platform/logger';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import {
  consumerLag,
  createKafka,
  createProducer,
  deadLetterTopic,
  ensureTopics,
  Headers,
  queueTopic,
  runConsumer,
  TaskQueue,
  TaskWorker,
  Topics,
  type ConsumedMessage,
  type KafkaClient,
  type Producer,
  type TaskMeta,
} from '../src/index.js';

const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:59092';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0';
const run = randomUUID().slice(0, 8);
const prefix = `test-${run}.`;
const logger = createLogger('kafka-test', process.env.TEST_LOG_LEVEL ?? 'silent');
// Fast group membership for tests (the broker's minimum session timeout is 6 s).
const fast = { sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 10_000 };

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  await expect.poll(condition, { timeout: timeoutMs, interval: 50 }).toBe(true);
}

describe('@platform/kafka', () => {
  let kafka: KafkaClient;
  let producer: Producer;
  let redis: Redis;
  let queue: TaskQueue;

  beforeAll(async () => {
    kafka = createKafka({ brokers: BROKERS, clientId: `kafka-test-${run}`, logger });
    producer = createProducer(kafka);
    redis = createRedis(REDIS_URL, { logger, keyPrefix: `test:${run}:` });
    queue = new TaskQueue(producer, { topicPrefix: prefix });
    // One partition per queue topic so the tests can rely on ordering.
    await ensureTopics(
      kafka,
      (['default', 'knowledge', 'workflow', 'agent', 'sandbox'] as const).map((q) => ({
        topic: queueTopic(q, prefix),
        partitions: 1,
      })),
    );
  });

  afterAll(async () => {
    await kafka?.disconnect();
    const admin = new kafkajs.Kafka({
      brokers: BROKERS.split(','),
      logLevel: kafkajs.logLevel.NOTHING,
    }).admin();
    await admin.connect();
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (mine.length) await admin.deleteTopics({ topics: mine }).catch(() => undefined);
    await admin.disconnect();
    const keys = await redis.keys(`test:${run}:*`);
    if (keys.length) await redis.del(...keys.map((k) => k.slice(`test:${run}:`.length)));
    await closeRedis(redis);
  });

  it('ensureTopics creates missing topics once', async () => {
    const a = `${prefix}ensure-a`;
    const b = `${prefix}ensure-b`;
    expect(await ensureTopics(BROKERS, [a, { topic: b, partitions: 3 }], { logger })).toEqual([a, b]);
    expect(await ensureTopics(BROKERS, [a, { topic: b, partitions: 3 }], { logger })).toEqual([]);
    const lag = await consumerLag(kafka, `${prefix}nobody`, b);
    expect(lag.partitions.map((p) => p.partition)).toEqual([0, 1, 2]);
    expect(lag.total).toBe(0);
  });

  it('round-trips a task through TaskQueue and TaskWorker, carrying the request id', async () => {
    const seen: { args: unknown; meta: TaskMeta; contextRequestId: string | undefined }[] = [];
    const worker = new TaskWorker(kafka, {
      queue: 'default',
      redis,
      logger,
      topicPrefix: prefix,
      ...fast,
    }).register<{
      to: string;
    }>('email.send', async (args, meta) => {
      seen.push({ args, meta, contextRequestId: requestContext.current()?.requestId });
    });
    await worker.start();
    await worker.ready;
    try {
      await expect(queue.enqueue('default', 'email.send', ['not', 'an', 'object'])).rejects.toThrow(
        /plain object/,
      );
      const requestId = `req-${run}`;
      const sent = await requestContext.run({ requestId }, () =>
        queue.enqueue('default', 'email.send', { to: 'a@example.com' }),
      );
      expect(sent).toMatchObject({
        task: 'email.send',
        args: { to: 'a@example.com' },
        request_id: requestId,
      });
      expect(new Date(sent.enqueued_at).toISOString()).toBe(sent.enqueued_at);
      await waitFor(() => seen.length === 1);
      expect(seen[0]!.args).toEqual({ to: 'a@example.com' });
      expect(seen[0]!.meta).toMatchObject({
        id: sent.id,
        task: 'email.send',
        queue: 'default',
        requestId,
        attempt: 1,
      });
      expect(seen[0]!.contextRequestId).toBe(requestId);
    } finally {
      await worker.stop();
    }
  });

  it('handles a redelivered task once: duplicate ids and a replay after a lost commit', async () => {
    const effects = new Map<string, number>();
    const makeWorker = () =>
      new TaskWorker(kafka, { queue: 'workflow', redis, logger, topicPrefix: prefix, ...fast }).register<{
        n: number;
      }>('workflow.run', (_args, meta) => {
        effects.set(meta.id, (effects.get(meta.id) ?? 0) + 1);
      });
    let worker = makeWorker();
    await worker.start();
    const dup = `dup-${run}`;
    await queue.enqueue('workflow', 'workflow.run', { n: 1 }, { id: dup });
    await queue.enqueue('workflow', 'workflow.run', { n: 1 }, { id: dup });
    await queue.enqueue('workflow', 'workflow.run', { n: 2 }, { id: 'barrier-1' });
    await waitFor(() => effects.has('barrier-1'));
    expect(effects.get(dup)).toBe(1);
    await worker.stop();

    // Simulate a crash after the side effect but before the offset commit: rewind the group so
    // every message is delivered again to a fresh worker.
    const admin = new kafkajs.Kafka({
      brokers: BROKERS.split(','),
      logLevel: kafkajs.logLevel.NOTHING,
    }).admin();
    await admin.connect();
    await admin.resetOffsets({ groupId: worker.groupId, topic: worker.topic, earliest: true });
    await admin.disconnect();
    expect((await consumerLag(kafka, worker.groupId, worker.topic)).total).toBe(3);

    worker = makeWorker();
    await worker.start();
    try {
      await queue.enqueue('workflow', 'workflow.run', { n: 3 }, { id: 'barrier-2' });
      await waitFor(() => effects.has('barrier-2'));
      expect(effects.get(dup)).toBe(1);
      expect(effects.get('barrier-1')).toBe(1);
      await waitFor(async () => (await consumerLag(kafka, worker.groupId, worker.topic)).total === 0, 15_000);
    } finally {
      await worker.stop();
    }
  });

  it('dead-letters a task whose handler keeps failing, after maxRetries, with the error', async () => {
    let attempts = 0;
    const worker = new TaskWorker(kafka, {
      queue: 'knowledge',
      topicPrefix: prefix,
      redis,
      logger,
      maxRetries: 2,
      retryBackoffMs: 20,
      ...fast,
    })
      .register('doc.index', () => {
        attempts += 1;
        throw new Error(`index unavailable (attempt ${attempts})`);
      })
      .register('doc.ok', () => undefined);
    await worker.start();
    const dead: ConsumedMessage[] = [];
    const dlq = await runConsumer(kafka, {
      groupId: `${prefix}dlq-reader`,
      topics: [deadLetterTopic(worker.topic)],
      handler: (m) => {
        dead.push(m);
      },
      logger,
      ...fast,
    });
    try {
      const failing = await queue.enqueue('knowledge', 'doc.index', { doc: 7 });
      const unknown = await queue.enqueue('knowledge', 'doc.nobody-handles-this', {});
      await waitFor(() => dead.length === 2);
      expect(attempts).toBe(3);
      // the dead-letter topic has the broker's default partition count: find by id, not position
      const first = dead.find((m) => (m.value as { id: string }).id === failing.id);
      const second = dead.find((m) => (m.value as { id: string }).id === unknown.id);
      expect(first!.value).toEqual(failing);
      expect(first!.headers).toMatchObject({
        [Headers.DLQ_ERROR]: 'index unavailable (attempt 3)',
        [Headers.DLQ_ATTEMPTS]: '3',
        [Headers.DLQ_ORIGINAL_TOPIC]: worker.topic,
        [Headers.DLQ_CONSUMER_GROUP]: worker.groupId,
        [Headers.MESSAGE_ID]: failing.id,
        [Headers.EVENT_TYPE]: 'doc.index',
      });
      expect(second!.value).toEqual(unknown);
      expect(second!.headers[Headers.DLQ_ERROR]).toMatch(/unknown task "doc.nobody-handles-this"/);
      expect(second!.headers[Headers.DLQ_ATTEMPTS]).toBe('1');
      // the queue moved on: nothing left behind
      await worker.stop();
      expect((await consumerLag(kafka, worker.groupId, worker.topic)).total).toBe(0);
    } finally {
      await worker.stop();
      await dlq.stop();
    }
  });

  it('stops promptly during a retry backoff, leaving the message for redelivery', async () => {
    let attempts = 0;
    const worker = new TaskWorker(kafka, {
      queue: 'sandbox',
      topicPrefix: prefix,
      redis,
      logger: createLogger('kafka-test', 'silent'),
      maxRetries: 5,
      retryBackoffMs: 20_000,
      ...fast,
    }).register('sandbox.exec', () => {
      attempts += 1;
      throw new Error('sandbox busy');
    });
    await worker.start();
    await queue.enqueue('sandbox', 'sandbox.exec', {});
    await waitFor(() => attempts === 1);
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(attempts).toBe(1);
    expect((await consumerLag(kafka, worker.groupId, worker.topic)).total).toBe(1);
    const dlq = await consumerLag(kafka, `${prefix}nobody`, deadLetterTopic(worker.topic));
    expect(dlq.partitions.every((p) => p.high === 0)).toBe(true);
  });

  it('publishes JSON events with platform headers and consumes them idempotently', async () => {
    const topic = `${prefix}${Topics.DOMAIN_EVENTS}`;
    await ensureTopics(kafka, [{ topic, partitions: 1 }]);
    const received: ConsumedMessage<{ type: string; keys: string[] }>[] = [];
    const consumer = await runConsumer<{ type: string; keys: string[] }>(kafka, {
      groupId: `${prefix}settings-cache`,
      topics: [topic],
      redis,
      logger,
      ...fast,
      handler: (m) => {
        expect(requestContext.current()?.requestId).toBe(m.requestId);
        received.push(m);
      },
    });
    try {
      const event = { type: 'settings.changed', keys: ['smtp'] };
      await requestContext.run({ requestId: 'req-settings', userId: 'u-1' }, async () => {
        await producer.publish(topic, { key: 'site', value: event, id: 'evt-1' });
        await producer.publish(topic, { key: 'site', value: event, id: 'evt-1' }); // duplicate
      });
      const { id } = await producer.publish(topic, {
        key: 'site',
        value: { type: 'settings.changed', keys: [] },
      });
      await waitFor(() => received.some((m) => m.id === id));
      expect(received).toHaveLength(2);
      expect(received[0]).toMatchObject({
        id: 'evt-1',
        key: 'site',
        value: event,
        requestId: 'req-settings',
        eventType: 'settings.changed',
        attempt: 1,
      });
      expect(received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'x-user-id': 'u-1' });
      expect(received[1]!.requestId).not.toBe('req-settings');
    } finally {
      await consumer.stop();
    }
  });

  it('dead-letters a message that is not JSON without calling the handler', async () => {
    const topic = `${prefix}raw-events`;
    await ensureTopics(kafka, [{ topic, partitions: 1 }]);
    let handled = 0;
    const dead: ConsumedMessage<string | null>[] = [];
    const consumer = await runConsumer(kafka, {
      groupId: `${prefix}raw`,
      topics: [topic],
      redis,
      logger,
      ...fast,
      handler: () => {
        handled += 1;
      },
    });
    const dlq = await runConsumer<string | null>(kafka, {
      groupId: `${prefix}raw-dlq`,
      topics: [deadLetterTopic(topic)],
      decodeJson: false,
      logger,
      ...fast,
      handler: (m) => {
        dead.push(m);
      },
    });
    try {
      await producer.publishRaw(topic, [{ key: null, value: '{"not json', headers: {} }]);
      await producer.publish(topic, { value: { ok: true } });
      await waitFor(() => handled === 1 && dead.length === 1);
      expect(dead[0]!.value).toBe('{"not json');
      expect(dead[0]!.headers[Headers.DLQ_ERROR]).toMatch(/invalid JSON/);
      expect(dead[0]!.headers[Headers.DLQ_ATTEMPTS]).toBe('0');
    } finally {
      await consumer.stop();
      await dlq.stop();
    }
  });
});
