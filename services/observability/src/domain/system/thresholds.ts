import type { MONITOR_STATUSES, NameOf } from '@platform/contracts';

/** Status word of every monitor of `/system/health`: the contract's closed set (MONITOR_STATUSES). */
export type MonitorStatus = NameOf<typeof MONITOR_STATUSES>;

const RANK: Record<MonitorStatus, number> = { normal: 0, warning: 1, danger: 2 };

/** `danger` at or above `danger`, `warning` at or above `warning`, else `normal`. */
export function byUsage(usagePercent: number, warning: number, danger: number): MonitorStatus {
  if (usagePercent >= danger) return 'danger';
  if (usagePercent >= warning) return 'warning';
  return 'normal';
}

/** The spec's thresholds (CPU 70/90, memory and disk 80/90); the database uses memory's. */
export const cpuStatus = (usage: number) => byUsage(usage, 70, 90);
export const memoryStatus = (usage: number) => byUsage(usage, 80, 90);
export const diskStatus = (usage: number) => byUsage(usage, 80, 90);
export const databaseStatus = (usage: number) => byUsage(usage, 80, 90);

/** Below this many lookups the hit rate says nothing yet. */
export const REDIS_MIN_LOOKUPS = 1000;

/**
 * Redis: reachable is `normal`; a hit rate under 50 % over enough lookups, or memory at 90 % of
 * `maxmemory`, is `warning`. Unreachable is `danger` (decided by the caller).
 */
export function redisStatus(
  hitRate: number,
  lookups: number,
  usedMemory: number,
  maxMemory: number,
): MonitorStatus {
  if (lookups >= REDIS_MIN_LOOKUPS && hitRate < 50) return 'warning';
  if (maxMemory > 0 && (usedMemory / maxMemory) * 100 >= 90) return 'warning';
  return 'normal';
}

export const BACKLOG_WARNING = 1000;
export const BACKLOG_DANGER = 5000;

/**
 * Workers: a backlog of 5000 over the five queues (the scan cap of one queue), or a queue with a
 * backlog and no worker in its group, is `danger`; 1000 is `warning`.
 */
export function workersStatus(queues: { backlog: number; workers: number }[]): MonitorStatus {
  const backlog = queues.reduce((sum, q) => sum + q.backlog, 0);
  if (backlog >= BACKLOG_DANGER || queues.some((q) => q.backlog > 0 && q.workers === 0)) return 'danger';
  if (backlog >= BACKLOG_WARNING) return 'warning';
  return 'normal';
}

/** The worst of several statuses. */
export function worst(statuses: MonitorStatus[]): MonitorStatus {
  return statuses.reduce<MonitorStatus>((a, b) => (RANK[b] > RANK[a] ? b : a), 'normal');
}

/** Percentages are reported with two decimals. */
export const round2 = (value: number) => Math.round(value * 100) / 100;
