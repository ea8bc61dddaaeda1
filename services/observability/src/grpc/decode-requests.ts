import { analyticsSets as sets, type ClosedSet } from '@platform/contracts';
import type * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import type {
  EntityInput,
  EntityListInput,
  ThroughputInput,
  TimeoutListInput,
} from '../domain/analytics/requests.js';

/**
 * A request enum as its JSON name: '' when unspecified, and for a value outside the route's set
 * (a workflow-only sort key sent to the agent list, a value from a newer peer) a name the use case
 * refuses the way it refuses any other, so the answer is the same 1001 as over HTTP.
 */
function nameIn(set: ClosedSet<string, number>, value: number): string {
  if (value === 0) return '';
  return set.fromProto(value) ?? `#${value}`;
}

const range = (value: analyticsV1.TimeRange) => nameIn(sets.TIME_RANGES, value);

export const decodeRange = (request: analyticsV1.TimeRangeRequest) => ({
  time_range: range(request.time_range),
});

export const decodeEntity = (request: analyticsV1.EntityRequest): EntityInput => ({
  id: request.id,
  time_range: range(request.time_range),
});

function decodeList(
  request: analyticsV1.ListEntitiesRequest | analyticsV1.ListTimeoutsRequest,
  sortKeys: ClosedSet<string, number>,
): EntityListInput {
  return {
    time_range: range(request.time_range),
    page: request.page,
    page_size: request.page_size,
    sort_by: nameIn(sortKeys, request.sort_by),
    sort_order: nameIn(sets.SORT_ORDERS, request.sort_order),
  };
}

export const decodeAgentList = (request: analyticsV1.ListEntitiesRequest) =>
  decodeList(request, sets.AGENT_SORT_KEYS);
export const decodeWorkflowList = (request: analyticsV1.ListEntitiesRequest) =>
  decodeList(request, sets.WORKFLOW_SORT_KEYS);

export const decodeTimeouts = (request: analyticsV1.ListTimeoutsRequest): TimeoutListInput => ({
  ...decodeList(request, sets.TIMEOUT_SORT_KEYS),
  source: nameIn(sets.TIMEOUT_SOURCES, request.source),
});

export const decodeThroughput = (request: analyticsV1.ThroughputRequest): ThroughputInput => ({
  time_range: range(request.time_range),
  granularity: nameIn(sets.GRANULARITIES, request.granularity),
});
