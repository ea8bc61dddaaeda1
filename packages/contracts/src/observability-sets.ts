import {
  EntitySortKey,
  Granularity,
  SortOrder,
  TimeoutSortKey,
  TimeoutSource,
  TimeoutType,
  TimeRange,
} from './gen/platform/observability/v1/analytics.js';
import { MonitorStatus, UnavailableReason } from './gen/platform/observability/v1/system.js';
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

// The closed sets only answers carry (the use cases name them with NameOf<typeof SET>).
/** A timeout event's kind (`workflow`: a run that timed out; `unknown`: an agent round in error). */
export const TIMEOUT_TYPES = enumSet(TimeoutType, 'TIMEOUT_TYPE_');
/** The state of a system monitor (`/admin/observability/system/*`). */
export const MONITOR_STATUSES = enumSet(MonitorStatus, 'MONITOR_STATUS_');
/** Why `/system/slow-queries` cannot read statement statistics. */
export const SLOW_QUERY_UNAVAILABLE_REASONS = enumSet(UnavailableReason, 'UNAVAILABLE_REASON_');
