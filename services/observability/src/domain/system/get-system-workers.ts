import {
  groupMembers,
  pendingCounts,
  queueTopic,
  QUEUES,
  readTaskStates,
  scanPending,
  workerGroup,
  type QueueName,
} from '@platform/kafka';
import type { SystemMonitorDeps } from './system-deps.js';
import { workersStatus, type MonitorStatus } from './thresholds.js';

/** The spec's scan: batches of 500 messages, at most 5000 per queue. */
export const SCAN_BATCH = 500;
export const SCAN_CAP = 5000;

export interface SystemWorkers {
  status: MonitorStatus;
  worker_count: number;
  active_tasks: number;
  reserved_tasks: number;
  scheduled_tasks: number;
  queues: Record<QueueName, number>;
  tasks: Record<string, Record<string, number>>;
  unscanned: Record<string, number>;
}

function taskNameOf(value: string | null): string | undefined {
  try {
    const task = (JSON.parse(value ?? 'null') as { task?: unknown } | null)?.task;
    return typeof task === 'string' && task ? task : undefined;
  } catch {
    return undefined;
  }
}

export interface WorkersSummary {
  status: MonitorStatus;
  worker_count: number;
  active_tasks: number;
  /** Pending messages over the five queues. */
  backlog: number;
}

/**
 * What the health monitor needs, without the scan: group members, task reports and lag. A
 * health call stays cheap however long the queues are.
 */
export async function getWorkersSummary(deps: SystemMonitorDeps): Promise<WorkersSummary> {
  const prefix = deps.queueTopicPrefix;
  const groups = QUEUES.map((q) => workerGroup(q, prefix));
  const topics = QUEUES.map((q) => queueTopic(q, prefix));
  const [members, states, lags] = await Promise.all([
    groupMembers(deps.kafka, groups),
    readTaskStates(deps.redis, topics),
    pendingCounts(
      deps.kafka,
      groups.map((groupId, i) => ({ groupId, topic: topics[i]! })),
    ),
  ]);
  return {
    status: workersStatus(lags.map((backlog, i) => ({ backlog, workers: members[groups[i]!] ?? 0 }))),
    worker_count: groups.reduce((total, g) => total + (members[g] ?? 0), 0),
    active_tasks: states.reduce((total, s) => total + s.active, 0),
    backlog: lags.reduce((total, n) => total + n, 0),
  };
}

/**
 * Queue state on Kafka: members of the five worker groups, their task reports in Redis, each
 * queue's consumer-group lag and a bounded scan of the pending messages by task name.
 */
export async function getSystemWorkers(deps: SystemMonitorDeps): Promise<SystemWorkers> {
  const prefix = deps.queueTopicPrefix;
  const groups = QUEUES.map((q) => workerGroup(q, prefix));
  const topics = QUEUES.map((q) => queueTopic(q, prefix));
  const [members, states, scans] = await Promise.all([
    groupMembers(deps.kafka, groups),
    readTaskStates(deps.redis, topics),
    Promise.all(
      QUEUES.map((_, i) =>
        scanPending(deps.kafka, {
          groupId: groups[i]!,
          topic: topics[i]!,
          batchSize: SCAN_BATCH,
          cap: SCAN_CAP,
          classify: taskNameOf,
          // Under this service's group prefix, so its Kafka user's prefixed group ACL covers it.
          scanGroupPrefix: `${prefix}observability.scan.${QUEUES[i]}.`,
        }),
      ),
    ),
  ]);
  const queues = {} as Record<QueueName, number>;
  const tasks: Record<string, Record<string, number>> = {};
  const unscanned: Record<string, number> = {};
  QUEUES.forEach((queue, i) => {
    queues[queue] = scans[i]!.pending;
    tasks[queue] = scans[i]!.counts;
    if (scans[i]!.unscanned > 0) unscanned[queue] = scans[i]!.unscanned;
  });
  const sum = (pick: (s: { active: number; reserved: number; scheduled: number }) => number) =>
    states.reduce((total, s) => total + pick(s), 0);
  return {
    status: workersStatus(QUEUES.map((q, i) => ({ backlog: queues[q], workers: members[groups[i]!] ?? 0 }))),
    worker_count: groups.reduce((total, g) => total + (members[g] ?? 0), 0),
    active_tasks: sum((s) => s.active),
    reserved_tasks: sum((s) => s.reserved),
    scheduled_tasks: sum((s) => s.scheduled),
    queues,
    tasks,
    unscanned,
  };
}
