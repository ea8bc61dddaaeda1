import type { HealthSnapshots } from '../../data/health-snapshots.js';
import { readCpu, readDisk, readMemory, type CpuReading, type UsageReading } from './host-monitors.js';
import {
  readDatabase,
  readRedis,
  withTimeout,
  type DatabaseReading,
  type RedisReading,
} from './store-monitors.js';
import { getWorkersSummary, type WorkersSummary } from './get-system-workers.js';
import type { SystemMonitorDeps } from './system-deps.js';
import { worst, type MonitorStatus } from './thresholds.js';

export type WorkersReading = WorkersSummary;

export interface SystemHealth {
  status: MonitorStatus;
  cpu: CpuReading;
  memory: UsageReading;
  disk: UsageReading;
  database: DatabaseReading;
  redis: RedisReading;
  workers: WorkersReading;
  checked_at: string;
}

const UNKNOWN_DISK: UsageReading = { status: 'danger', usage_percent: 0, used_bytes: 0, total_bytes: 0 };

async function readWorkers(deps: SystemMonitorDeps): Promise<WorkersReading> {
  try {
    // Kafka down must not hold the answer.
    return await withTimeout(getWorkersSummary(deps), 10_000);
  } catch (error) {
    deps.logger.warn({ err: error }, 'worker monitor failed');
    return { status: 'danger', worker_count: 0, active_tasks: 0, backlog: 0 };
  }
}

/**
 * One health snapshot: every monitor read in parallel, each failing on its own (an unreachable
 * database or Redis is that monitor's `danger`, never an error of the call), then appended to the
 * snapshot list (best effort: with Redis down the snapshot is still answered).
 */
export async function getSystemHealth(
  deps: SystemMonitorDeps,
  snapshots: HealthSnapshots,
): Promise<SystemHealth> {
  const [cpu, memory, disk, database, redis, workers] = await Promise.all([
    readCpu(),
    readMemory(),
    readDisk(deps.diskPath).catch(() => UNKNOWN_DISK),
    readDatabase(deps.pool),
    readRedis(deps.redis),
    readWorkers(deps),
  ]);
  const health: SystemHealth = {
    status: worst([cpu.status, memory.status, disk.status, database.status, redis.status, workers.status]),
    cpu,
    memory,
    disk,
    database,
    redis,
    workers,
    checked_at: new Date().toISOString(),
  };
  await withTimeout(snapshots.append(health)).catch((error: unknown) =>
    deps.logger.warn({ err: error }, 'could not append the health snapshot'),
  );
  return health;
}
