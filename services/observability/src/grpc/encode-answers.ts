import { analyticsSets as sets } from '@platform/contracts';
import type * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import type {
  AgentDetailAnswer,
  OverviewAnswer,
  ThroughputAnswer,
  TimeoutListAnswer,
  TokensAnswer,
  WorkflowDetailAnswer,
} from '../domain/analytics/answers.js';

/**
 * The analytics answers' names as the proto enums (the other direction of decode-requests.ts): the
 * use cases answer the range and granularity the figures cover and a timeout's source and type by
 * name, the message carries them as enum values, and the gateway presents the names again.
 */
const range = (name: OverviewAnswer['time_range']) => sets.TIME_RANGES.toProto(name);
const granularity = (name: ThroughputAnswer['granularity']) => sets.GRANULARITIES.toProto(name);

export const encodeOverview = (answer: OverviewAnswer): analyticsV1.Overview => ({
  ...answer,
  time_range: range(answer.time_range),
});

export const encodeAgentDetail = (answer: AgentDetailAnswer): analyticsV1.AgentDetail => ({
  ...answer,
  time_range: range(answer.time_range),
  granularity: granularity(answer.granularity),
});

export const encodeWorkflowDetail = (answer: WorkflowDetailAnswer): analyticsV1.WorkflowDetail => ({
  ...answer,
  time_range: range(answer.time_range),
  granularity: granularity(answer.granularity),
});

export const encodeTimeouts = (answer: TimeoutListAnswer): analyticsV1.TimeoutList => ({
  ...answer,
  items: answer.items.map((item) => ({
    ...item,
    source: sets.TIMEOUT_SOURCES.toProto(item.source),
    timeout_type: sets.TIMEOUT_TYPES.toProto(item.timeout_type),
  })),
});

export const encodeThroughput = (answer: ThroughputAnswer): analyticsV1.Throughput => ({
  ...answer,
  granularity: granularity(answer.granularity),
});

export const encodeTokens = (answer: TokensAnswer): analyticsV1.Tokens => ({
  ...answer,
  time_range: range(answer.time_range),
});

/** Answers without a closed-set field go out as the use case built them. */
export const asIs = <Answer>(answer: Answer): Answer => answer;
