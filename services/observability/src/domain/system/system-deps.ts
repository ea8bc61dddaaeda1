import type { Pool } from '@platform/db';
import type { KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { PayloadCache } from '../../data/payload-cache.js';
import type { AggregateGate } from '../../data/aggregate-gate.js';

/** What the system monitors need; the composition root passes its own connections. */
export interface SystemMonitorDeps {
  /** The service's database: the database monitor and the statement statistics. */
  pool: Pool;
  /** Snapshot list, worker task reports, response cache; also the monitored in-memory store. */
  redis: Redis;
  kafka: KafkaClient;
  logger: Logger;
  /** Prefix of every Redis key this service writes (`REDIS_KEY_PREFIX`). */
  redisKeyPrefix: string;
  /** Prefix of the queue topics and worker groups (`QUEUE_TOPIC_PREFIX`; empty in production). */
  queueTopicPrefix: string;
  /** Filesystem the disk monitor reports on (`HEALTH_DISK_PATH`). */
  diskPath: string;
  /** The service's 30 s payload cache per (endpoint, parameters). */
  cache: PayloadCache;
  /** The process-wide bound of aggregate queries (the statement-statistics query passes it). */
  gate: AggregateGate;
  /** Databases whose statements `/system/slow-queries` lists (`SLOW_QUERY_DATABASES`; empty = all). */
  slowQueryDatabases: string[];
}
