import { analyticsSets, translateFields, type ClosedSet } from '@platform/contracts';
import type * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { nameOf } from './closed-set-names.js';
import { defineRoute, type RouteDefinition } from './route-definition.js';
import { text } from './text-schemas.js';
import { pagingQuery } from './validation.js';

/** Spec: any other value (or none) falls back to 30d, never an error; so any short string. */
const timeRange = text(100)
  .optional()
  .describe(`${analyticsSets.TIME_RANGES.names.join(' | ')}; anything else (or none) = 30d`);
const sortOrder = z.enum(analyticsSets.SORT_ORDERS.names).optional().describe('default desc');

const rangeQuery = z.object({ time_range: timeRange });
type RangeQuery = z.infer<typeof rangeQuery>;
const listQuery = (sortKeys: readonly [string, ...string[]]) =>
  z.object({
    time_range: timeRange,
    ...pagingQuery,
    sort_by: z.enum(sortKeys).optional(),
    sort_order: sortOrder,
  });
type ListQuery = {
  time_range?: string;
  page: number;
  page_size: number;
  sort_by?: string;
  sort_order?: string;
};
const timeoutsQuery = z.object({
  time_range: timeRange,
  source: z.enum(analyticsSets.TIMEOUT_SOURCES.names).optional(),
  ...pagingQuery,
  sort_by: z.enum(analyticsSets.TIMEOUT_SORT_KEYS.names).optional(),
  sort_order: sortOrder,
});
type TimeoutsQuery = z.infer<typeof timeoutsQuery>;
const throughputQuery = z.object({
  time_range: timeRange,
  granularity: z.enum(analyticsSets.GRANULARITIES.names).optional(),
});
type ThroughputQuery = z.infer<typeof throughputQuery>;
/** What the figures cover: the request's range (or 30d) and bucket size, never anything else. */
const rangeAnswer = z.enum(analyticsSets.TIME_RANGES.names);
const granularityAnswer = z.enum(analyticsSets.GRANULARITIES.names);
/** Agent and workflow ids are UUIDs, like every other id in a path (422 / 1001 otherwise). */
const entityId = z.uuid();

const percentiles = z.object({
  p50_ms: z.number(),
  p90_ms: z.number(),
  p95_ms: z.number(),
  p99_ms: z.number(),
});
const agentStats = z.object({
  agent_id: z.string(),
  agent_name: z.string().nullable(),
  requests: z.number().int(),
  completed: z.number().int(),
  errors: z.number().int(),
  success_rate: z.number(),
  timeout_rate: z.number(),
  tokens: z.number().int(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  ttft: percentiles,
});
const workflowStats = z.object({
  workflow_id: z.string(),
  workflow_name: z.string().nullable(),
  runs: z.number().int(),
  requests: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  timeouts: z.number().int(),
  failed_nodes: z.number().int(),
  success_rate: z.number(),
  timeout_rate: z.number(),
  tokens: z.number().int(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
});
const trendPoint = z.object({
  bucket: z.string(),
  requests: z.number().int(),
  successes: z.number().int(),
  failures: z.number().int(),
  tokens: z.number().int(),
});
const paged = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

/** Unknown names are null over HTTP (the proto carries ''). */
const named = <T extends { agent_name?: string; workflow_name?: string; entity_name?: string }>(item: T) => ({
  ...item,
  ...('agent_name' in item ? { agent_name: item.agent_name || null } : {}),
  ...('workflow_name' in item ? { workflow_name: item.workflow_name || null } : {}),
  ...('entity_name' in item ? { entity_name: item.entity_name || null } : {}),
});

/** The answers' closed sets by name: the range and granularity the figures cover, a timeout's kind. */
const rangeName = { time_range: nameOf(analyticsSets.TIME_RANGES) };
const granularityName = { granularity: nameOf(analyticsSets.GRANULARITIES) };
const timeoutKindNames = {
  source: nameOf(analyticsSets.TIMEOUT_SOURCES),
  timeout_type: nameOf(analyticsSets.TIMEOUT_TYPES),
};

const base = {
  tags: ['observability'],
  auth: 'user' as const,
  method: 'get' as const,
  permission: 'admin:dashboard:access',
};
const P = '/admin/observability';
/** Absent = UNSPECIFIED (0), the service's default; any other `time_range` is 30d, as the spec says. */
const valueIn = (set: ClosedSet<string, number>, name: string | undefined): number =>
  name !== undefined && set.has(name) ? set.toProto(name) : 0;
const rangeValue = (query: RangeQuery) => valueIn(analyticsSets.TIME_RANGES, query.time_range);
const request = (query: ListQuery, sortKeys: ClosedSet<string, number>) => ({
  time_range: rangeValue(query),
  page: query.page,
  page_size: query.page_size,
  sort_by: valueIn(sortKeys, query.sort_by),
  sort_order: valueIn(analyticsSets.SORT_ORDERS, query.sort_order),
});

/** The admin observability analytics (docs/observability.md); system monitors are in their own file. */
export const observabilityRoutes: RouteDefinition<ServiceClients>[] = [
  defineRoute<ServiceClients, undefined, RangeQuery, undefined, analyticsV1.Overview>({
    ...base,
    path: `${P}/overview`,
    summary: 'Totals, rates, latency and TTFT percentiles, throughput over a time range',
    query: rangeQuery,
    response: z.object({
      time_range: rangeAnswer,
      totals: z.object({
        agent_requests: z.number().int(),
        workflow_runs: z.number().int(),
        total_requests: z.number().int(),
        total_tokens: z.number().int(),
      }),
      rates: z.object({
        agent_success_rate: z.number(),
        workflow_success_rate: z.number(),
        overall_success_rate: z.number(),
        timeout_rate: z.number(),
      }),
      latency: percentiles,
      ttft: percentiles,
      throughput: z.object({ current_qps: z.number(), peak_hourly_requests: z.number().int() }),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call('getOverview', { time_range: rangeValue(query) }, { principal }),
    present: (answer) => translateFields(answer, rangeName),
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, analyticsV1.AgentList>({
    ...base,
    path: `${P}/agents`,
    summary: 'Agents with their request counts, rates, tokens and latency percentiles (paged)',
    query: listQuery(analyticsSets.AGENT_SORT_KEYS.names) as z.ZodType<ListQuery>,
    response: paged(agentStats),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call('listAgents', request(query, analyticsSets.AGENT_SORT_KEYS), { principal }),
    present: (list) => ({ ...list, items: list.items.map(named) }),
  }),
  defineRoute<ServiceClients, { agent_id: string }, RangeQuery, undefined, analyticsV1.AgentDetail>({
    ...base,
    path: `${P}/agent/:agent_id`,
    summary: "One agent's figures and trend",
    params: z.object({ agent_id: entityId }),
    query: rangeQuery,
    response: z.object({
      agent: agentStats,
      time_range: rangeAnswer,
      granularity: granularityAnswer,
      trend: z.array(trendPoint),
    }),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.analytics.call(
        'getAgent',
        { id: params.agent_id, time_range: rangeValue(query) },
        { principal },
      ),
    present: (detail) => ({
      ...translateFields(detail, { ...rangeName, ...granularityName }),
      agent: detail.agent && named(detail.agent),
    }),
  }),
  defineRoute<ServiceClients, undefined, ListQuery, undefined, analyticsV1.WorkflowList>({
    ...base,
    path: `${P}/workflows`,
    summary: 'Workflows with their run counts, rates, failed nodes, tokens and latency percentiles (paged)',
    query: listQuery(analyticsSets.WORKFLOW_SORT_KEYS.names) as z.ZodType<ListQuery>,
    response: paged(workflowStats),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call('listWorkflows', request(query, analyticsSets.WORKFLOW_SORT_KEYS), {
        principal,
      }),
    present: (list) => ({ ...list, items: list.items.map(named) }),
  }),
  defineRoute<ServiceClients, { workflow_id: string }, RangeQuery, undefined, analyticsV1.WorkflowDetail>({
    ...base,
    path: `${P}/workflow/:workflow_id`,
    summary: "One workflow's figures, trend and its 20 most executed node types",
    params: z.object({ workflow_id: entityId }),
    query: rangeQuery,
    response: z.object({
      workflow: workflowStats,
      time_range: rangeAnswer,
      granularity: granularityAnswer,
      trend: z.array(trendPoint),
      node_types: z.array(
        z.object({
          node_type: z.string(),
          execution_count: z.number().int(),
          failed_count: z.number().int(),
          avg_duration_ms: z.number(),
        }),
      ),
    }),
    invoke: ({ params, query }, { clients, principal }) =>
      clients.analytics.call(
        'getWorkflow',
        { id: params.workflow_id, time_range: rangeValue(query) },
        { principal },
      ),
    present: (detail) => ({
      ...translateFields(detail, { ...rangeName, ...granularityName }),
      workflow: detail.workflow && named(detail.workflow),
    }),
  }),
  defineRoute<ServiceClients, undefined, TimeoutsQuery, undefined, analyticsV1.TimeoutList>({
    ...base,
    path: `${P}/timeouts`,
    summary: 'Workflow runs that timed out and agent rounds that ended in error (paged)',
    query: timeoutsQuery,
    response: paged(
      z.object({
        id: z.string(),
        source: z.enum(analyticsSets.TIMEOUT_SOURCES.names).exclude(['all']),
        timeout_type: z.enum(analyticsSets.TIMEOUT_TYPES.names),
        entity_id: z.string(),
        entity_name: z.string().nullable(),
        status: z.string(),
        duration_ms: z.number(),
        user_id: z.string(),
        occurred_at: z.string(),
      }),
    ).extend({ agent_timeout_type_available: z.boolean() }),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call(
        'listTimeouts',
        {
          ...request(query, analyticsSets.TIMEOUT_SORT_KEYS),
          source: valueIn(analyticsSets.TIMEOUT_SOURCES, query.source),
        },
        { principal },
      ),
    present: (list) => ({
      ...list,
      items: list.items.map((item) => translateFields(named(item), timeoutKindNames)),
    }),
  }),
  defineRoute<ServiceClients, undefined, ThroughputQuery, undefined, analyticsV1.Throughput>({
    ...base,
    path: `${P}/throughput`,
    summary: 'Current qps, running workflows and the bucketed request series',
    query: throughputQuery,
    response: z.object({
      qps: z.number(),
      running_workflows: z.number().int(),
      granularity: granularityAnswer,
      series: z.array(
        z.object({
          bucket: z.string(),
          requests: z.number().int(),
          agent_requests: z.number().int(),
          workflow_runs: z.number().int(),
        }),
      ),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call(
        'getThroughput',
        {
          time_range: rangeValue(query),
          granularity: valueIn(analyticsSets.GRANULARITIES, query.granularity),
        },
        { principal },
      ),
    present: (answer) => translateFields(answer, granularityName),
  }),
  defineRoute<ServiceClients, undefined, RangeQuery, undefined, analyticsV1.Tokens>({
    ...base,
    path: `${P}/tokens`,
    summary: 'Token usage by source and by model (7d/30d: the larger of facts and quota counters)',
    query: rangeQuery,
    response: z.object({
      time_range: rangeAnswer,
      total: z.number().int(),
      by_source: z.object({ agent: z.number().int(), workflow: z.number().int(), other: z.number().int() }),
      by_model: z.array(
        z.object({ model: z.string(), tokens: z.number().int(), requests: z.number().int() }),
      ),
      quota_counters_used: z.boolean(),
    }),
    invoke: ({ query }, { clients, principal }) =>
      clients.analytics.call('getTokens', { time_range: rangeValue(query) }, { principal }),
    present: (answer) => translateFields(answer, rangeName),
  }),
];
