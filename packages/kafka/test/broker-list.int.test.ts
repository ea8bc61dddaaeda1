// KAFKA_BROKERS with dead brokers first (deploy/README.md, "Connection URLs"): the list is only where
// the client starts; any broker that answers hands out the cluster's own addresses. Against the real
// local Kafka (the variable's validation: packages/config/test/connection-urls.test.ts).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import {
  createKafka,
  createProducer,
  parseBrokers,
  runConsumer,
  type ConsumedMessage,
  type KafkaClient,
} from '../src/index.js';

const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:59092';
const run = randomUUID().slice(0, 8);
const topic = `test-${run}.broker-list`;
const logger = createLogger('kafka-broker-list-test', process.env.TEST_LOG_LEVEL ?? 'silent');

async function deadBroker(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

describe('KAFKA_BROKERS with dead brokers first', () => {
  const admin = new kafkajs.Kafka({
    brokers: BROKERS.split(','),
    logLevel: kafkajs.logLevel.NOTHING,
  }).admin();
  let kafka: KafkaClient;

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  });

  afterAll(async () => {
    await kafka?.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('publishes and consumes through the broker that answers', async () => {
    const list = `${await deadBroker()}, ${await deadBroker()},${BROKERS}`;
    const brokers = parseBrokers(list);
    expect(brokers).toHaveLength(2 + BROKERS.split(',').length);

    kafka = createKafka({ brokers, clientId: `broker-list-${run}`, logger, retries: 5 });
    const received: ConsumedMessage[] = [];
    await runConsumer(kafka, {
      groupId: `test-${run}.broker-list-reader`,
      topics: [topic],
      fromBeginning: true,
      sessionTimeoutMs: 6000,
      heartbeatIntervalMs: 500,
      logger,
      handler: (message) => {
        received.push(message);
      },
    });
    await createProducer(kafka).publish(topic, { value: { type: 'probe', run } });
    await expect
      .poll(() => received.map((m) => m.value), { timeout: 30_000 })
      .toEqual([{ type: 'probe', run }]);
  });
});
