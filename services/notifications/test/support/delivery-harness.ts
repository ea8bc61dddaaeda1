import { createKafka, createProducer, ensureTopics, queueTopic, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/logger';
import { closeMongo, connectMongo, syncIndexes, type Connection } from '@platform/mongo';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import { stackEnv, uniqueName } from '@platform/testing';
import type { SettingsSource } from '../../src/domain/delivery/delivery-ports.js';
import type { Contact, RecipientDirectory } from '../../src/domain/identity-port.js';
import { loadNotificationsConfig, type NotificationsConfig } from '../../src/config.js';
import type { DeliverableNotification } from '../../src/domain/delivery-port.js';
import {
  createDelivery,
  startDeliveryWorkers,
  type Delivery,
  type DeliveryServiceDeps,
  type DeliveryWorkers,
} from '../../src/delivery-area.js';

export const logger = createLogger('delivery-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** Site settings the delivery side reads, set by the test (identity's own store is tested there). */
export class TestSettings implements SettingsSource {
  values: Record<string, unknown> = {};
  set(changes: Record<string, unknown>): void {
    this.values = { ...this.values, ...changes };
  }
  async get(): Promise<Record<string, unknown>> {
    return this.values;
  }
}

/** Users and teams for fan-out, in identity's stable order (sorted ids), paged by cursor. */
export class TestDirectory implements RecipientDirectory {
  readonly users = new Map<string, Contact>();
  readonly teams = new Map<string, string[]>();
  async contacts(ids: readonly string[]) {
    return ids.flatMap((id) => (this.users.has(id) ? [this.users.get(id)!] : []));
  }
  private page(ids: string[], cursor: string, limit: number) {
    const sorted = [...ids].sort();
    const start = cursor ? sorted.findIndex((id) => id > cursor) : 0;
    const slice = start < 0 ? [] : sorted.slice(start, start + limit);
    const next = start >= 0 && start + limit < sorted.length ? slice[slice.length - 1]! : '';
    return { ids: slice, next };
  }
  async teamMemberIds(teamId: string, cursor: string, limit: number) {
    const members = this.teams.get(teamId);
    return members
      ? { found: true, ...this.page(members, cursor, limit) }
      : { found: false, ids: [], next: '' };
  }
  async activeUserIds(cursor: string, limit: number) {
    return this.page(
      [...this.users.values()].filter((u) => u.is_active).map((u) => u.id),
      cursor,
      limit,
    );
  }
}

export interface DeliveryHarness {
  connection: Connection;
  redis: Redis;
  kafka: KafkaClient;
  settings: TestSettings;
  directory: TestDirectory;
  config: NotificationsConfig;
  delivery: Delivery;
  /** Starts the default-queue worker and the reconciler (a second call starts another replica). */
  startWorkers(overrides?: Partial<DeliveryServiceDeps>): Promise<DeliveryWorkers>;
  /** Another delivery side on the same database, queue and settings (a replica). */
  replica(env?: Record<string, string>): Delivery;
  stop(): Promise<void>;
}

export function notification(overrides: Partial<DeliverableNotification> = {}): DeliverableNotification {
  return {
    id: crypto.randomUUID(),
    scope: 'global',
    user_id: null,
    team_id: null,
    title: 'Disk "almost" full',
    content: 'Line one\nLine <two> & "three"',
    link_url: 'https://example.com/alerts/1?x=1&y=2',
    type: 'system.alert',
    level: 'high',
    ...overrides,
  };
}

/**
 * The delivery side in-process on its own FerretDB database, with its own queue topics and worker
 * group (a unique `QUEUE_TOPIC_PREFIX`, so the running services never take its tasks).
 */
export async function startDeliveryHarness(
  env: Record<string, string> = {},
  options: { now?: () => number } = {},
): Promise<DeliveryHarness> {
  const database = uniqueName('ndeliver').replace(/-/g, '_');
  const prefix = `${uniqueName('t')}.`;
  const baseEnv = {
    ...process.env,
    MONGO_URL: stackEnv.mongoUrl.replace(/\/[^/]*$/, `/${database}`),
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    TASK_SEAL_KEY: stackEnv.taskSealKey,
    ...stackEnv.serviceTrustEnv('notifications'),
    IDENTITY_GRPC_ADDR: '127.0.0.1:1',
    QUEUE_TOPIC_PREFIX: prefix,
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    DELIVERY_RECONCILE_INTERVAL_MS: '300',
    DELIVERY_RESUBMIT_AFTER_MS: '2000',
    DELIVERY_HTTP_TIMEOUT_MS: '3000',
    ...env,
  };
  const config = loadNotificationsConfig(baseEnv);
  const connection = await connectMongo(config.MONGO_URL, { logger });
  const redis = createRedis(config.REDIS_URL, { logger });
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'delivery-test', logger });
  const producer = createProducer(kafka);
  const settings = new TestSettings();
  const directory = new TestDirectory();
  const base: DeliveryServiceDeps = {
    connection,
    redis,
    kafka,
    producer,
    logger,
    config,
    settings,
    directory,
    ...(options.now ? { now: options.now } : {}),
  };
  const delivery = createDelivery(base);
  await syncIndexes(connection, { logger });
  if (!config.KAFKA_BROKERS.includes('127.0.0.1:1')) {
    await ensureTopics(kafka, [queueTopic('default', prefix)], { logger });
  }
  const workers: DeliveryWorkers[] = [];
  const extraKafka: KafkaClient[] = [];
  return {
    connection,
    redis,
    kafka,
    settings,
    directory,
    config,
    delivery,
    async startWorkers(overrides = {}) {
      const own =
        overrides.kafka ??
        createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'delivery-worker', logger });
      if (!overrides.kafka) extraKafka.push(own);
      const deps = { ...base, kafka: own, producer: overrides.producer ?? createProducer(own), ...overrides };
      const started = startDeliveryWorkers(deps, createDelivery(deps));
      workers.push(started);
      return started;
    },
    replica(extraEnv = {}) {
      const replicaConfig = loadNotificationsConfig({ ...baseEnv, ...extraEnv });
      const replicaKafka = createKafka({
        brokers: replicaConfig.KAFKA_BROKERS,
        clientId: 'delivery-replica',
        logger,
        retries: 1,
      });
      extraKafka.push(replicaKafka);
      return createDelivery({
        ...base,
        config: replicaConfig,
        kafka: replicaKafka,
        producer: createProducer(replicaKafka),
      });
    },
    async stop() {
      for (const w of workers) await w.stop().catch(() => undefined);
      for (const k of extraKafka) await k.disconnect().catch(() => undefined);
      await kafka.disconnect();
      await closeRedis(redis);
      await connection.db?.dropDatabase().catch(() => undefined);
      await closeMongo(connection);
    },
  };
}
