import type { Pool } from '@platform/db';
import type { KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Redis } from '@platform/redis';
import type { ObservabilityConfig } from './config.js';
import type { SystemMonitorDeps } from './domain/system/system-deps.js';
import { systemGrpc } from './grpc/system-grpc.js';

type SystemConfig = Pick<
  ObservabilityConfig,
  'REDIS_KEY_PREFIX' | 'QUEUE_TOPIC_PREFIX' | 'HEALTH_DISK_PATH' | 'SLOW_QUERY_DATABASES'
>;

/** The system monitors' view of the service's connections and config. */
export function systemMonitorDeps(
  config: SystemConfig,
  connections: { pool: Pool; redis: Redis; kafka: KafkaClient; logger: Logger },
): SystemMonitorDeps {
  return {
    ...connections,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    queueTopicPrefix: config.QUEUE_TOPIC_PREFIX,
    diskPath: config.HEALTH_DISK_PATH,
    slowQueryDatabases: config.SLOW_QUERY_DATABASES,
  };
}

/** `SystemMonitorService`, for the composition root's list of gRPC services. */
export function systemMonitorsGrpc(
  config: SystemConfig,
  connections: { pool: Pool; redis: Redis; kafka: KafkaClient; logger: Logger },
) {
  return systemGrpc(systemMonitorDeps(config, connections));
}
