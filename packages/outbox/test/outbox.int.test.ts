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
import { stackEnv, uniqueName } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent, OUTBOX_TABLE_SQL, OutboxRelay } from '../src/index.js';

const logger = createLogger('outbox-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const database = uniqueName('outbox_t').replace(/-/g, '_');
const topic = uniqueName('test-outbox');
let pool: Pool;
let kafka: KafkaClient;

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
    await downRelay.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
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
    const until = Date.now() + 20_000;
    while (received.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
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
      publish: async (t: string, message: { key?: string | null; value: object }) => {
        published.push(String(message.key));
        return producer.publish(t, message);
      },
    });
    const relays = [1, 2].map(() => new OutboxRelay({ pool, producer: counting, logger, batchSize: 7 }));
    await Promise.all(relays.map((relay) => relay.flush()));
    expect(await pending()).toBe(0);
    expect(published.filter((key) => key.startsWith('bulk-')).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `bulk-${i}`).sort(),
    );
  });
});
