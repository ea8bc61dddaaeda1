import type { Pool } from '@platform/db';
import type { KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';

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
  /** Databases whose statements `/system/slow-queries` lists (`SLOW_QUERY_DATABASES`; empty = all). */
  slowQueryDatabases: string[];
}
