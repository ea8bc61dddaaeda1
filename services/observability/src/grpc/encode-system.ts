import { MONITOR_STATUSES, SLOW_QUERY_UNAVAILABLE_REASONS } from '@platform/contracts';
import type * as systemV1 from '@platform/contracts/platform/observability/v1/system';
import type { SystemHealth } from '../domain/system/get-system-health.js';
import type { SystemWorkers } from '../domain/system/get-system-workers.js';
import type { SlowQueries } from '../domain/system/list-slow-queries.js';
import type { MonitorStatus } from '../domain/system/thresholds.js';

/**
 * The system monitors' answers as messages: the use cases (and the snapshot list in Redis) keep
 * the status words by name, the message carries them as the proto enums, and the gateway presents
 * the names again. A snapshot read back from Redis is taken as it is: a monitor it lacks stays
 * absent and a word outside the set is UNSPECIFIED (presented as ''), never a failed trend.
 */
const statusValue = (name: unknown): systemV1.MonitorStatus =>
  MONITOR_STATUSES.has(name) ? MONITOR_STATUSES.toProto(name) : 0;

function withStatus<Reading extends { status: MonitorStatus }>(
  reading: Reading,
): Omit<Reading, 'status'> & { status: systemV1.MonitorStatus } {
  return { ...reading, status: statusValue(reading.status) };
}

const monitor = <Reading extends { status: MonitorStatus }>(reading: Reading | undefined) =>
  reading && withStatus(reading);

/** One snapshot: just taken, or one of the list (whatever Redis holds, hence Partial). */
export function encodeHealth(health: Partial<SystemHealth>): systemV1.SystemHealth {
  return {
    ...health,
    status: statusValue(health.status),
    cpu: monitor(health.cpu),
    memory: monitor(health.memory),
    disk: monitor(health.disk),
    database: monitor(health.database),
    redis: monitor(health.redis),
    workers: monitor(health.workers),
    checked_at: health.checked_at ?? '',
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
