import {
  createPool,
  dropDatabase,
  ensureDatabase,
  withDatabase,
  withTransaction,
  type Pool,
} from '@platform/db';
import { createKafka, createProducer, ensureTopics, runConsumer, type KafkaClient } from '@platform/kafka';
import { createLogger, requestContext } from '@platform/logger';
import { metricsRegistry } from '@platform/telemetry';
import { stackEnv, uniqueName, waitUntil } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent, OUTBOX_TABLE_SQL, OutboxRelay } from '../src/index.js';

const logger = createLogger('outbox-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const database = uniqueName('outbox_t').replace(/-/g, '_');
const topic = uniqueName('test-outbox');
let pool: Pool;
let kafka: KafkaClient;

/** outbox_relayed_total{outcome="failed"}: rows a relay tried to publish and kept for a retry. */
async function relayedFailed(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('outbox_relayed_total')?.get();
  return metric?.values.find((v) => v.labels.outcome === 'failed')?.value ?? 0;
}

async function pending(): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
  return rows[0]!.n;
}

function event(key: string) {
  return {
    topic,
    key,
    type: 'test.happened',
    id: randomUUID(),
    value: { id: randomUUID(), type: 'test.happened', key },
  };
}

beforeAll(async () => {
  await ensureDatabase(stackEnv.postgresAdminUrl, database);
  pool = createPool(withDatabase(stackEnv.postgresAdminUrl, database), { logger });
  await pool.query(OUTBOX_TABLE_SQL);
  kafka = createKafka({ brokers: stackEnv.kafkaBrokers, clientId: 'outbox-test', logger });
  await ensureTopics(kafka, [topic]);
});

afterAll(async () => {
  await kafka?.disconnect();
  await pool?.end();
  await dropDatabase(stackEnv.postgresAdminUrl, database);
});

describe('transactional outbox', () => {
  it('keeps events while Kafka is unreachable and publishes them once it is back, with their request id', async () => {
    const unreachable = createKafka({
      brokers: ['127.0.0.1:1'],
      clientId: 'outbox-down',
      logger,
      retries: 0,
      connectionTimeoutMs: 300,
    });
    const downRelay = new OutboxRelay({
      pool,
      producer: createProducer(unreachable),
      logger,
      pollIntervalMs: 50,
      backoffMs: 50,
    });
    await requestContext.run({ requestId: 'req-outbox-1' }, () => enqueueEvent(pool, event('a')));
    await enqueueEvent(pool, event('b'));
    const failedBefore = await relayedFailed();
    await downRelay.start();
    // Both rows tried and kept for a retry (the relay's own count), instead of a guessed wait.
    await expect.poll(relayedFailed, { timeout: 10_000 }).toBeGreaterThanOrEqual(failedBefore + 2);
    await downRelay.stop();
    await unreachable.disconnect();
    expect(await pending()).toBe(2);

    const received: { key: string; requestId: string }[] = [];
    const consumer = await runConsumer<{ key: string }>(kafka, {
      groupId: uniqueName('outbox-reader'),
      topics: [topic],
      logger,
      handler: async (message) => {
        received.push({ key: message.value.key, requestId: message.requestId });
      },
    });
    await consumer.ready;
    const relay = new OutboxRelay({ pool, producer: createProducer(kafka), logger, pollIntervalMs: 50 });
    await relay.start();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await relay.stop();
    await consumer.stop();
    expect(received.map((r) => r.key).sort()).toEqual(['a', 'b']);
    expect(received.find((r) => r.key === 'a')?.requestId).toBe('req-outbox-1');
    expect(await pending()).toBe(0);
  });

  it('an event enqueued in a transaction that rolls back is never published', async () => {
    await withTransaction(pool, async (client) => {
      await enqueueEvent(client, event('rolled-back'));
      throw new Error('state change failed');
    }).catch(() => undefined);
    expect(await pending()).toBe(0);
  });

  it('two relays share the work without publishing a row twice', async () => {
    for (let i = 0; i < 50; i++) await enqueueEvent(pool, event(`bulk-${i}`));
    const producer = createProducer(kafka);
    const published: string[] = [];
    const counting = Object.assign(Object.create(Object.getPrototypeOf(producer)), producer, {
      // The relay sends each batch in one request (publishMany): count every message in it.
      publishMany: async (
        messages: Array<{ topic: string; message: { key?: string | null; value: object } }>,
      ) => {
        for (const { message } of messages) published.push(String(message.key));
        return producer.publishMany(messages);
      },
    });
    const relays = [1, 2].map(() => new OutboxRelay({ pool, producer: counting, logger, batchSize: 7 }));
    await Promise.all(relays.map((relay) => relay.flush()));
    expect(await pending()).toBe(0);
    expect(published.filter((key) => key.startsWith('bulk-')).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `bulk-${i}`).sort(),
    );
  });

  it('survives its LISTEN connection being killed, again and again and while stopping', async () => {
    // A dropped connection may emit 'error' more than once; releasing it twice used to throw an
    // uncaught "Release called on client which has already been released" (seen in CI when a
    // test database was dropped under a running relay).
    const killListeners = async () => {
      const { rows } = await pool.query<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ~* '^\\s*(un)?listen'`,
      );
      return rows.length;
    };
    const relay = new OutboxRelay({ pool, producer: createProducer(kafka), logger, pollIntervalMs: 50 });
    await relay.start();
    let killed = 0;
    for (let round = 0; round < 5; round++) {
      // wait for the relay to LISTEN again, then kill that connection too
      killed += await waitUntil(async () => (await killListeners()) || undefined, 5_000, 'no LISTEN again');
    }
    expect(killed).toBeGreaterThanOrEqual(5);
    await enqueueEvent(pool, event('after-kills'));
    await waitUntil(async () => ((await pending()) === 0 ? true : undefined), 10_000, 'not published');
    await waitUntil(async () => (await killListeners()) || undefined, 5_000, 'no LISTEN at the end');
    const stopping = relay.stop();
    await killListeners();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 200)); // late 'error' events, if any
  });
});
