import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, requestContext } from '@platform/logger';
import {
  createKafka,
  createProducer,
  ensureTopics,
  runBatchConsumer,
  type BatchMessage,
  type KafkaClient,
  type Producer,
} from '../src/index.js';

const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:59092';
const prefix = `test-${randomUUID().slice(0, 8)}.`;
const logger = createLogger('kafka-batch-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** A batch handler's per-message view: each message's own request id, and work run under it. */
describe('runBatchConsumer messages', () => {
  let kafka: KafkaClient;
  let producer: Producer;

  beforeAll(() => {
    kafka = createKafka({ brokers: BROKERS, clientId: `kafka-batch-test-${prefix}`, logger });
    producer = createProducer(kafka);
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
  });

  it("hands each item its message's request id and runs per-message work under it", async () => {
    const topic = `${prefix}facts`;
    await ensureTopics(kafka, [{ topic, partitions: 1 }]);
    const seen: {
      item: { n: number };
      message: BatchMessage;
      inRun: string | undefined;
      after: string | undefined;
    }[] = [];
    const consumer = await runBatchConsumer<{ n: number }>(kafka, {
      groupId: `${prefix}facts`,
      topics: [topic],
      logger,
      decode: (value) => value as { n: number },
      handle: async (items, _topic, messages) => {
        expect(messages).toHaveLength(items.length);
        items.forEach((item, index) => {
          const message = messages[index]!;
          const inRun = message.run(() => requestContext.current()?.requestId);
          // A second call runs under the same request id (one span per message and batch call).
          expect(message.run(() => requestContext.current()?.requestId)).toBe(inRun);
          seen.push({ item, message, inRun, after: requestContext.current()?.requestId });
        });
      },
    });
    try {
      await consumer.ready;
      await requestContext.run({ requestId: 'req-one' }, () => producer.publish(topic, { value: { n: 1 } }));
      await requestContext.run({ requestId: 'req-two' }, () => producer.publish(topic, { value: { n: 2 } }));
      await producer.publishRaw(topic, [{ key: null, value: JSON.stringify({ n: 3 }), headers: {} }]);
      await expect.poll(() => seen.length, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(3);
      expect(seen.map((s) => s.item.n)).toEqual([1, 2, 3]);
      expect(seen.map((s) => s.message.requestId).slice(0, 2)).toEqual(['req-one', 'req-two']);
      expect(seen.map((s) => s.inRun).slice(0, 2)).toEqual(['req-one', 'req-two']);
      // No header: a fresh id of its own, used by run as well.
      expect(seen[2]!.message.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen[2]!.inRun).toBe(seen[2]!.message.requestId);
      // Outside run, the batch has no single request.
      for (const s of seen) expect(s.after).not.toBe(s.inRun);
      expect(seen[0]!.message.offset).toBe('0');
      expect(seen[0]!.message.topic).toBe(topic);
    } finally {
      await consumer.stop();
    }
  });
});
