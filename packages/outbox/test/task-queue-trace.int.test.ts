import {
  createKafka,
  createProducer,
  ensureTopics,
  queueTopic,
  TaskQueue,
  TaskWorker,
  type KafkaClient,
} from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import { currentTraceIds, SpanKind, withSpan } from '@platform/telemetry';
import { captureSpans, stackEnv, uniqueName, waitUntil, type SpanCapture } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The task queues' tracing lives in @platform/kafka; it is tested here, where the span capture
// helper (@platform/testing, which depends on kafka) may be used.
const logger = createLogger('task-trace-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const prefix = `${uniqueName('test-tasktrace')}.`;
const topic = queueTopic('default', prefix);
let kafka: KafkaClient;
let redis: Redis;
let capture: SpanCapture;

beforeAll(async () => {
  capture = captureSpans();
  kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'task-trace-test', logger });
  redis = createRedis(stackEnv.redisUrl, { logger, keyPrefix: prefix });
  await ensureTopics(kafka, [topic]);
});

afterAll(async () => {
  capture?.stop();
  await kafka?.disconnect();
  if (redis) await closeRedis(redis);
});

describe('task queue tracing', () => {
  it("a task carries the sender's trace and its handler runs in a consumer span below the producer span", async () => {
    let handledIn: { traceId: string; spanId: string } | undefined;
    const worker = new TaskWorker(kafka, { queue: 'default', topicPrefix: prefix, redis, logger });
    worker.register('trace.check', () => {
      handledIn = currentTraceIds();
    });
    await worker.start();
    const sender = await withSpan('send the task', {}, async (span) => {
      await new TaskQueue(createProducer(kafka), { topicPrefix: prefix }).enqueue(
        'default',
        'trace.check',
        {},
      );
      return span.spanContext();
    });
    await waitUntil(() => handledIn, 30_000, 'the task was not handled');
    await worker.stop();

    const producer = capture
      .spans()
      .find((s) => s.kind === SpanKind.PRODUCER && s.name === `${topic} publish`);
    const consumer = capture
      .spans()
      .find((s) => s.kind === SpanKind.CONSUMER && s.name === `${topic} process`);
    expect(producer, 'no producer span').toBeDefined();
    expect(consumer, 'no consumer span').toBeDefined();
    expect(capture.parentOf(producer!)).toBe(sender.spanId);
    expect(capture.parentOf(consumer!)).toBe(producer!.spanContext().spanId);
    expect(consumer!.spanContext().traceId).toBe(sender.traceId);
    // The handler ran with the consumer span active: its logs and calls belong to the trace.
    expect(handledIn).toEqual({ traceId: sender.traceId, spanId: consumer!.spanContext().spanId });
  });
});
