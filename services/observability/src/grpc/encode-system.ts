import { MONITOR_STATUSES, SLOW_QUERY_UNAVAILABLE_REASONS } from '@platform/contracts';
import type * as systemV1 from '@platform/contracts/platform/observability/v1/system';
import type { SystemHealth } from '../domain/system/get-system-health.js';
import type { SystemWorkers } from '../domain/system/get-system-workers.js';
import type { SlowQueries } from '../domain/system/list-slow-queries.js';
import type { MonitorStatus } from '../domain/system/thresholds.js';

/**
 * The system monitors' answers as messages: the use cases (and the snapshot list in Redis) keep
 * the status words by name, the message carries them as the proto enums, and the gateway presents
 * the names again.
 */
function withStatus<Reading extends { status: MonitorStatus }>(
  reading: Reading,
): Omit<Reading, 'status'> & { status: systemV1.MonitorStatus } {
  return { ...reading, status: MONITOR_STATUSES.toProto(reading.status) };
}

export function encodeHealth(health: SystemHealth): systemV1.SystemHealth {
  return {
    ...withStatus(health),
    cpu: withStatus(health.cpu),
    memory: withStatus(health.memory),
    disk: withStatus(health.disk),
    database: withStatus(health.database),
    redis: withStatus(health.redis),
    workers: withStatus(health.workers),
  };
}

export function encodeWorkers(workers: SystemWorkers): systemV1.SystemWorkers {
  return {
    ...withStatus(workers),
    tasks: Object.fromEntries(Object.entries(workers.tasks).map(([queue, counts]) => [queue, { counts }])),
  };
}

export function encodeSlowQueries({ reason, ...rest }: SlowQueries): systemV1.SlowQueries {
  return reason === undefined ? rest : { ...rest, reason: SLOW_QUERY_UNAVAILABLE_REASONS.toProto(reason) };
}
