import { MONITOR_STATUSES, SLOW_QUERY_UNAVAILABLE_REASONS } from '@platform/contracts';
import type * as systemV1 from '@platform/contracts/platform/observability/v1/system';
import { GLOBAL_ADMIN_PERMISSION } from '@platform/rbac';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { nameOf } from './closed-set-names.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery, queryInt } from './validation.js';

const status = z.enum(MONITOR_STATUSES.names);
const usage = z.object({
  status,
  usage_percent: z.number(),
  used_bytes: z.number().int(),
  total_bytes: z.number().int(),
});

const health = z.object({
  status,
  cpu: z.object({ status, usage_percent: z.number(), cores: z.number().int(), architecture: z.string() }),
  memory: usage,
  disk: usage,
  database: z.object({
    status,
    active_connections: z.number().int(),
    max_connections: z.number().int(),
    usage_percent: z.number(),
  }),
  redis: z.object({
    status,
    used_memory: z.number().int(),
    connected_clients: z.number().int(),
    ops_per_sec: z.number(),
    hit_rate: z.number().describe('keyspace hits / lookups, 0-100'),
  }),
  workers: z.object({
    status,
    worker_count: z.number().int(),
    active_tasks: z.number().int(),
    backlog: z.number().int().describe('pending messages over the five queues'),
  }),
  checked_at: z.string(),
});

const queueCounts = z.object({
  default: z.number().int(),
  knowledge: z.number().int(),
  workflow: z.number().int(),
  agent: z.number().int(),
  sandbox: z.number().int(),
});

const workers = z.object({
  status,
  worker_count: z.number().int(),
  active_tasks: z.number().int(),
  reserved_tasks: z.number().int(),
  scheduled_tasks: z.number().int(),
  queues: queueCounts.describe('pending length (consumer-group lag) per queue'),
  tasks: z
    .record(z.string(), z.union([z.record(z.string(), z.number().int()), z.number().int()]))
    .describe('per queue: pending tasks by name (scanned part); `unscanned:<queue>`: backlog beyond the cap'),
});

const slowQueriesQuery = z.object({
  threshold_ms: queryInt(1, 2_147_483_647, 1000),
  ...pagingQuery,
});
type SlowQueriesQuery = z.infer<typeof slowQueriesQuery>;

const slowQueries = z.object({
  available: z.boolean(),
  reason: z.enum(SLOW_QUERY_UNAVAILABLE_REASONS.names).optional(),
  items: z.array(
    z.object({
      query: z.string(),
      mean_ms: z.number(),
      total_ms: z.number(),
      calls: z.number().int(),
      rows: z.number().int(),
      database: z.string(),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  threshold_ms: z.number().int(),
});

const statusName = nameOf(MONITOR_STATUSES);

/** A monitor with its status word. */
function named<Monitor extends { status: systemV1.MonitorStatus }>(monitor: Monitor | undefined) {
  return monitor && { ...monitor, status: statusName(monitor.status) };
}

/** One health snapshot, every monitor's status by name. */
export function presentHealth(message: systemV1.SystemHealth) {
  return {
    ...message,
    status: statusName(message.status),
    cpu: named(message.cpu),
    memory: named(message.memory),
    disk: named(message.disk),
    database: named(message.database),
    redis: named(message.redis),
    workers: named(message.workers),
  };
}

/** `tasks` as the spec shows it: one object per queue, plus `unscanned:<queue>` where the cap cut. */
export function presentWorkers(message: systemV1.SystemWorkers) {
  const { tasks, unscanned, ...rest } = message;
  const merged: Record<string, Record<string, number> | number> = {};
  for (const [queue, breakdown] of Object.entries(tasks)) merged[queue] = breakdown.counts;
  for (const [queue, count] of Object.entries(unscanned)) merged[`unscanned:${queue}`] = count;
  return { ...rest, status: statusName(message.status), tasks: merged };
}

function presentSlowQueries(message: systemV1.SlowQueries) {
  const { reason, ...rest } = message;
  if (message.available) return rest;
  return { ...rest, reason: nameOf(SLOW_QUERY_UNAVAILABLE_REASONS)(reason ?? 0) };
}

const common = {
  tags: ['observability'],
  auth: 'user' as const,
  method: 'get' as const,
  permission: GLOBAL_ADMIN_PERMISSION,
};

/** `/admin/observability/system/*` (docs/observability.md, "System monitors"). */
export const observabilitySystemRoutes = [
  defineRoute<ServiceClients, undefined, undefined, undefined, systemV1.SystemHealth>({
    ...common,
    path: '/admin/observability/system/health',
    summary: 'CPU, memory, disk, database, Redis and worker monitors; appends a snapshot to the trend',
    response: health,
    invoke: (_input, { clients, principal }) =>
      clients.observabilitySystem.call('getSystemHealth', {}, { principal }),
    present: presentHealth,
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, systemV1.SystemTrend>({
    ...common,
    path: '/admin/observability/system/trend',
    summary: 'The health snapshots kept (about 120, expiring 24 h after the last), oldest first',
    response: z.object({ snapshots: z.array(health) }),
    invoke: (_input, { clients, principal }) =>
      clients.observabilitySystem.call('getSystemTrend', {}, { principal }),
    present: (trend) => ({ snapshots: trend.snapshots.map(presentHealth) }),
  }),
  defineRoute<ServiceClients, undefined, undefined, undefined, systemV1.SystemWorkers>({
    ...common,
    path: '/admin/observability/system/workers',
    summary: 'Task workers and the five queues: members, running/fetched/retrying tasks, backlog by task',
    response: workers,
    invoke: (_input, { clients, principal }) =>
      clients.observabilitySystem.call('getSystemWorkers', {}, { principal }),
    present: presentWorkers,
  }),
  defineRoute<ServiceClients, undefined, SlowQueriesQuery, undefined, systemV1.SlowQueries>({
    ...common,
    path: '/admin/observability/system/slow-queries',
    summary: 'Statements of the service databases whose mean time is at least threshold_ms, slowest first',
    query: slowQueriesQuery,
    response: slowQueries,
    invoke: ({ query }, { clients, principal }) =>
      clients.observabilitySystem.call('listSlowQueries', query, { principal }),
    present: presentSlowQueries,
  }),
];
