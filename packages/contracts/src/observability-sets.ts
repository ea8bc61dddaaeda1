import {
  EntitySortKey,
  Granularity,
  SortOrder,
  TimeoutSortKey,
  TimeoutSource,
  TimeRange,
} from './gen/platform/observability/v1/analytics.js';
import { closedSet } from './closed-set.js';

/**
 * The analytics parameters' closed sets (analytics.proto), each written once: the gateway's query
 * schemas and the OpenAPI document use `names`, the observability service the same tables.
 */
export const TIME_RANGES = closedSet([
  ['7d', TimeRange.TIME_RANGE_7D],
  ['30d', TimeRange.TIME_RANGE_30D],
  ['90d', TimeRange.TIME_RANGE_90D],
  ['all', TimeRange.TIME_RANGE_ALL],
] as const);

export const GRANULARITIES = closedSet([
  ['hour', Granularity.GRANULARITY_HOUR],
  ['day', Granularity.GRANULARITY_DAY],
] as const);

export const SORT_ORDERS = closedSet([
  ['asc', SortOrder.SORT_ORDER_ASC],
  ['desc', SortOrder.SORT_ORDER_DESC],
] as const);

const agentSortPairs = [
  ['requests', EntitySortKey.ENTITY_SORT_KEY_REQUESTS],
  ['p50', EntitySortKey.ENTITY_SORT_KEY_P50],
  ['p90', EntitySortKey.ENTITY_SORT_KEY_P90],
  ['p95', EntitySortKey.ENTITY_SORT_KEY_P95],
  ['p99', EntitySortKey.ENTITY_SORT_KEY_P99],
  ['timeout_rate', EntitySortKey.ENTITY_SORT_KEY_TIMEOUT_RATE],
  ['success_rate', EntitySortKey.ENTITY_SORT_KEY_SUCCESS_RATE],
  ['tokens', EntitySortKey.ENTITY_SORT_KEY_TOKENS],
] as const;

/** `GET …/agents?sort_by=`. */
export const AGENT_SORT_KEYS = closedSet(agentSortPairs);

/** `GET …/workflows?sort_by=`: the agent keys and two of its own. */
export const WORKFLOW_SORT_KEYS = closedSet([
  ...agentSortPairs,
  ['runs', EntitySortKey.ENTITY_SORT_KEY_RUNS],
  ['failed_nodes', EntitySortKey.ENTITY_SORT_KEY_FAILED_NODES],
] as const);

export const TIMEOUT_SORT_KEYS = closedSet([
  ['occurred_at', TimeoutSortKey.TIMEOUT_SORT_KEY_OCCURRED_AT],
  ['duration_ms', TimeoutSortKey.TIMEOUT_SORT_KEY_DURATION_MS],
] as const);

export const TIMEOUT_SOURCES = closedSet([
  ['all', TimeoutSource.TIMEOUT_SOURCE_ALL],
  ['agent', TimeoutSource.TIMEOUT_SOURCE_AGENT],
  ['workflow', TimeoutSource.TIMEOUT_SOURCE_WORKFLOW],
] as const);
