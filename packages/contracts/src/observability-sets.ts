import {
  EntitySortKey,
  Granularity,
  SortOrder,
  TimeoutSortKey,
  TimeoutSource,
  TimeRange,
} from './gen/platform/observability/v1/analytics.js';
import { enumSet } from './enum-set.js';

/**
 * The analytics parameters' closed sets (analytics.proto), each written once: the gateway's query
 * schemas and the OpenAPI document use `names`, the observability service the same tables.
 */
export const TIME_RANGES = enumSet(TimeRange, 'TIME_RANGE_');

export const GRANULARITIES = enumSet(Granularity, 'GRANULARITY_');

export const SORT_ORDERS = enumSet(SortOrder, 'SORT_ORDER_');

/** `GET …/workflows?sort_by=`. */
export const WORKFLOW_SORT_KEYS = enumSet(EntitySortKey, 'ENTITY_SORT_KEY_');

/** `GET …/agents?sort_by=`: the workflow keys but the two only workflows have. */
export const AGENT_SORT_KEYS = enumSet(EntitySortKey, 'ENTITY_SORT_KEY_', ['runs', 'failed_nodes']);

export const TIMEOUT_SORT_KEYS = enumSet(TimeoutSortKey, 'TIMEOUT_SORT_KEY_');

export const TIMEOUT_SOURCES = enumSet(TimeoutSource, 'TIMEOUT_SOURCE_');
