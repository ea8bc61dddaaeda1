// Benchmark of delivery throughput: N webhook deliveries to a local sink through the whole path
// (stored `pending` in the real store, submitted to the `default` queue on Kafka, claimed, sent,
// recorded), with R worker replicas in this process sharing one consumer group. Own database,
// queue topics and group (dropped/unique), so the running services are not touched.
//
//   source deploy/local/env.sh && node bench/dist/notifications-delivery.js \
//     [--deliveries 2000] [--replicas 2] [--concurrency 3] [--sink-delay-ms 0]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createKafka, createProducer, ensureTopics, queueTopic } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { closeMongo, connectMongo, syncIndexes } from '@platform/mongo';
import { closeRedis, createRedis } from '@platform/redis';
import { loadNotificationsConfig } from '@platform/notifications/dist/config.js';
import { ownSigningKeyEnv } from './lib/trust.js';
import {
  createDelivery,
  startDeliveryWorkers,
  type DeliveryServiceDeps,
} from '@platform/notifications/dist/delivery-area.js';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '2000' },
    replicas: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '3' },
    'sink-delay-ms': { type: 'string', default: '0' },
  },
});
const total = Number(values.deliveries);
const replicas = Number(values.replicas);
const sinkDelay = Number(values['sink-delay-ms']);
const logger = createLogger('bench-delivery', process.env.LOG_LEVEL ?? 'silent');

let received = 0;
const sink = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    setTimeout(() => res.end('ok'), sinkDelay);
  });
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;

const database = `bench_delivery_${Date.now().toString(36)}`;
const prefix = `bench-${randomUUID().slice(0, 8)}.`;
const config = loadNotificationsConfig({
  ...process.env,
  ...ownSigningKeyEnv('notifications'),
  MONGO_URL: (process.env.MONGO_URL ?? 'mongodb://127.0.0.1:57017/notifications').replace(
    /\/[^/]*$/,
    `/${database}`,
  ),
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:56379/0',
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:59092',
  IDENTITY_GRPC_ADDR: '127.0.0.1:1',
  QUEUE_TOPIC_PREFIX: prefix,
  DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
  DEFAULT_QUEUE_CONCURRENCY: values.concurrency,
});
const connection = await connectMongo(config.MONGO_URL, { logger, maxPoolSize: 20 });
const redis = createRedis(config.REDIS_URL, { logger });
const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-delivery', logger });
const settings = {
  get: async () => ({ webhook_enabled: true, webhook_url: sinkUrl, webhook_secret: 'bench' }),
};
const directory = {
  contacts: async () => [],
  teamMemberIds: async () => ({ found: false, ids: [], next: '' }),
  activeUserIds: async () => ({ ids: [], next: '' }),
};
const base: DeliveryServiceDeps = {
  connection,
  redis,
  kafka,
  producer: createProducer(kafka),
  logger,
  config,
  settings,
  directory,
};
const delivery = createDelivery(base);
await syncIndexes(connection, { logger });
await ensureTopics(kafka, [queueTopic('default', prefix)], { logger });
const workers = Array.from({ length: replicas }, () => {
  const own = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'bench-worker', logger });
  const deps = { ...base, kafka: own, producer: createProducer(own) };
  return { kafka: own, handle: startDeliveryWorkers(deps, createDelivery(deps)) };
});
// Let the group settle before the clock starts (joins and rebalances are not throughput).
await new Promise((resolve) => setTimeout(resolve, 8_000));

const started = Date.now();
for (let i = 0; i < total; i += 1) {
  const id = randomUUID();
  await delivery.port.scheduleDeliveries(
    {
      id,
      scope: 'global',
      user_id: null,
      team_id: null,
      title: `t${i}`,
      content: 'c',
      link_url: null,
      type: 'bench',
      level: 'low',
    },
    ['webhook'],
  );
}
const scheduledMs = Date.now() - started;
for (;;) {
  const done = await delivery.repo.model.countDocuments({ status: 'success' });
  if (done >= total) break;
  if (Date.now() - started > 600_000) throw new Error(`only ${done} of ${total} delivered in 10 minutes`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const elapsedMs = Date.now() - started;
const docs = await delivery.repo.model
  .find({}, { created_at: 1, sent_at: 1 })
  .lean<{ created_at: Date; sent_at: Date }[]>();
const latencies = docs.map((d) => d.sent_at.getTime() - d.created_at.getTime()).sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
console.log(
  JSON.stringify({
    deliveries: total,
    replicas,
    partitions_concurrency: Number(values.concurrency),
    sink_requests: received,
    schedule_ms: scheduledMs,
    elapsed_ms: elapsedMs,
    deliveries_per_s: Math.round((total / elapsedMs) * 1000),
    latency_ms: { p50: pct(50), p90: pct(90), p99: pct(99), max: latencies[latencies.length - 1] },
  }),
);
for (const w of workers) {
  await w.handle.stop();
  await w.kafka.disconnect();
}
await kafka.disconnect();
await connection.db?.dropDatabase();
await closeMongo(connection);
await closeRedis(redis);
sink.close();
