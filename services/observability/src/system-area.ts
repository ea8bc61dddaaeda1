import type { ObservabilityDependencies } from './deps.js';
import type { SystemMonitorDeps } from './domain/system/system-deps.js';
import { systemGrpc } from './grpc/system-grpc.js';

type Connections = Pick<
  ObservabilityDependencies,
  'config' | 'pool' | 'redis' | 'kafka' | 'logger' | 'cache' | 'gate'
>;

/** The system monitors' view of the service's dependencies. */
export function systemMonitorDeps(deps: Connections): SystemMonitorDeps {
  const { config, pool, redis, kafka, logger, cache, gate } = deps;
  return {
    pool,
    redis,
    kafka,
    logger,
    cache,
    gate,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    queueTopicPrefix: config.QUEUE_TOPIC_PREFIX,
    diskPath: config.HEALTH_DISK_PATH,
    slowQueryDatabases: config.SLOW_QUERY_DATABASES,
  };
}

/** `SystemMonitorService`, for the composition root's list of gRPC services. */
export function systemMonitorsGrpc(deps: Connections) {
  return systemGrpc(systemMonitorDeps(deps));
}
