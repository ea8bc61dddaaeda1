import { createPool, dropDatabase, ensureDatabase, withDatabase, type Pool } from '@platform/db';
import { createKafka, createProducer, ensureTopics, runConsumer, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { captureSpans, stackEnv, uniqueName, waitUntil, type SpanCapture } from '@platform/testing';
import { metricsRegistry, SpanKind, withSpan } from '@platform/telemetry';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent, OUTBOX_TABLE_SQL, OutboxRelay } from '../src/index.js';

const logger = createLogger('outbox-telemetry-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const database = uniqueName('outbox_tel').replace(/-/g, '_');
const topic = uniqueName('test-outbox-trace');
let pool: Pool;
let kafka: KafkaClient;
let capture: SpanCapture;

function event(key: string) {
  return { topic, key, type: 'test.happened', id: randomUUID(), value: { id: randomUUID(), key } };
}

/** The value of a metric series of this process's registry (as a scrape would collect it). */
async function metricValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = metricsRegistry.getSingleMetric(name);
  if (!metric) throw new Error(`metric ${name} is not registered`);
  const { values } = await metric.get();
  const match = values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
  return match?.value ?? 0;
}

beforeAll(async () => {
  capture = captureSpans();
  await ensureDatabase(stackEnv.postgresAdminUrl, database);
  pool = createPool(withDatabase(stackEnv.postgresAdminUrl, database), { logger });
  await pool.query(OUTBOX_TABLE_SQL);
  kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'outbox-telemetry-test', logger });
  await ensureTopics(kafka, [topic]);
});

afterAll(async () => {
  capture?.stop();
  await kafka?.disconnect();
  await pool?.end();
  await dropDatabase(stackEnv.postgresAdminUrl, database);
});

describe('outbox telemetry', () => {
  it('carries the trace from the writing span through the relay into the consumer', async () => {
    const consumer = await runConsumer<{ key: string }>(kafka, {
      groupId: uniqueName('outbox-trace-reader'),
      topics: [topic],
      logger,
      handler: async () => undefined,
    });
    await consumer.ready;
    const writer = await withSpan('write the event', {}, async (span) => {
      await enqueueEvent(pool, event('traced'));
      return span.spanContext();
    });
    const stored = await pool.query<{ trace_context: string }>('SELECT trace_context FROM outbox');
    expect(stored.rows[0]?.trace_context).toContain(writer.spanId);

    // The relay runs outside the request, as in a service: only the stored context links them.
    const relay = new OutboxRelay({ pool, producer: createProducer(kafka), logger, gaugeCacheMs: 100 });
    await relay.flush();
    const consumed = await waitUntil(
      () => capture.spans().find((s) => s.kind === SpanKind.CONSUMER && s.name === `${topic} process`),
      20_000,
      'no consumer span',
    );
    await consumer.stop();
    const producer = capture
      .spans()
      .find((s) => s.kind === SpanKind.PRODUCER && s.name === `${topic} publish`);
    expect(producer, 'the relay made no producer span').toBeDefined();
    expect(capture.parentOf(producer!)).toBe(writer.spanId);
    expect(producer!.spanContext().traceId).toBe(writer.traceId);
    expect(capture.parentOf(consumed)).toBe(producer!.spanContext().spanId);
    expect(consumed.spanContext().traceId).toBe(writer.traceId);
  });

  it('shows the backlog and the oldest row while Kafka is unreachable, and counts relayed rows', async () => {
    const unreachable = createKafka({
      brokers: ['127.0.0.1:1'],
      clientId: 'outbox-telemetry-down',
      logger,
      retries: 0,
      connectionTimeoutMs: 300,
    });
    // The gauges re-read the outbox every 100 ms here (every 5 s by default).
    const downRelay = new OutboxRelay({
      pool,
      producer: createProducer(unreachable),
      logger,
      backoffMs: 50,
      gaugeCacheMs: 100,
    });
    const failedBefore = await metricValue('outbox_relayed_total', { outcome: 'failed' });
    const okBefore = await metricValue('outbox_relayed_total', { outcome: 'ok' });
    for (const key of ['x', 'y', 'z']) await enqueueEvent(pool, event(key));
    await expect(downRelay.flush()).rejects.toThrow();
    await unreachable.disconnect();
    expect(await metricValue('outbox_relayed_total', { outcome: 'failed' })).toBe(failedBefore + 3);

    await waitUntil(async () => (await metricValue('outbox_backlog_rows')) === 3, 10_000, 'no backlog of 3');
    const age = await metricValue('outbox_oldest_row_age_seconds');
    expect(age).toBeGreaterThan(0);
    await waitUntil(
      async () => (await metricValue('outbox_oldest_row_age_seconds')) >= age + 0.2,
      5_000,
      'the oldest row does not age',
    );

    await new OutboxRelay({ pool, producer: createProducer(kafka), logger, gaugeCacheMs: 100 }).flush();
    expect(await metricValue('outbox_relayed_total', { outcome: 'ok' })).toBe(okBefore + 3);
    await waitUntil(async () => (await metricValue('outbox_backlog_rows')) === 0, 10_000, 'backlog stays');
    expect(await metricValue('outbox_oldest_row_age_seconds')).toBe(0);
  });
});
