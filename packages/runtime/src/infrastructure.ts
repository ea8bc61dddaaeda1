import { kafkaSecurity, type KafkaSecurityConfig, type KafkaTopicMode } from '@platform/config';
import { endWithSessionPool, openDatabase, type Pool } from '@platform/db';
import {
  createKafka,
  createProducer,
  type CreateKafkaOptions,
  type KafkaClient,
  type Producer,
  type PartitionOverrides,
} from '@platform/kafka';
import { requireKafkaTopics } from './kafka-topics.js';
import type { Logger } from '@platform/logger';
import { closeRedis, createRedis, type Redis } from '@platform/redis';

/** The stores and the event bus of a service that has its own database, Redis and Kafka. */
export interface Infrastructure {
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  /** Disconnects Kafka (stopping its consumers), then closes Redis and the pool. */
  close(): Promise<void>;
}

export interface InfrastructureConfig extends KafkaSecurityConfig {
  DATABASE_URL: string;
  /** false: check the schema instead of migrating it (SchemaBehindError when it is older). */
  MIGRATE_ON_START: boolean;
  /** The LISTEN connections' (and the start-up migration lock's) URL, when DATABASE_URL is pooled per transaction. */
  DATABASE_SESSION_URL?: string | undefined;
  REDIS_URL: string;
  KAFKA_BROKERS: CreateKafkaOptions['brokers'];
  /** `verify`: the client creates no topics (they are provisioned; requireKafkaTopics checks them). */
  KAFKA_TOPIC_MODE?: KafkaTopicMode;
  KAFKA_TOPIC_PARTITIONS?: PartitionOverrides;
}

/**
 * Opens the service's database (migrated, or only checked with MIGRATE_ON_START=false), then creates
 * its Redis connection, Kafka client and producer; `name` is the Postgres application name, Redis
 * connection name and Kafka client id. `topics` (as named on the wire) are the ones the service
 * produces to or consumes: with KAFKA_TOPIC_MODE=verify a missing or short one stops the start
 * (requireKafkaTopics, exit 78).
 */
export async function connectInfrastructure(
  config: InfrastructureConfig,
  logger: Logger,
  name: string,
  migrations: URL,
  topics: string[],
): Promise<Infrastructure> {
  const pool = await openDatabase(config.DATABASE_URL, migrations, {
    logger,
    applicationName: name,
    migrate: config.MIGRATE_ON_START,
    ...(config.DATABASE_SESSION_URL ? { sessionUrl: config.DATABASE_SESSION_URL } : {}),
  });
  const redis = createRedis(config.REDIS_URL, { logger, connectionName: name });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: name,
    logger,
    ...kafkaSecurity(name, config),
    topicMode: config.KAFKA_TOPIC_MODE ?? 'create',
  });
  const producer = createProducer(kafka);
  const close = async () => {
    await kafka.disconnect();
    await closeRedis(redis);
    await endWithSessionPool(pool);
  };
  try {
    await requireKafkaTopics({ service: name, kafka, logger, config, topics });
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return { pool, redis, kafka, producer, close };
}
