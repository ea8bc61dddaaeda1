import { analyticsSets as sets, translateFields } from '@platform/contracts';
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
const range = { time_range: sets.TIME_RANGES.toProto };
const granularity = { granularity: sets.GRANULARITIES.toProto };
const timeoutKinds = { source: sets.TIMEOUT_SOURCES.toProto, timeout_type: sets.TIMEOUT_TYPES.toProto };

export const encodeOverview = (answer: OverviewAnswer): analyticsV1.Overview =>
  translateFields(answer, range);

export const encodeAgentDetail = (answer: AgentDetailAnswer): analyticsV1.AgentDetail =>
  translateFields(answer, { ...range, ...granularity });

export const encodeWorkflowDetail = (answer: WorkflowDetailAnswer): analyticsV1.WorkflowDetail =>
  translateFields(answer, { ...range, ...granularity });

export const encodeTimeouts = (answer: TimeoutListAnswer): analyticsV1.TimeoutList => ({
  ...answer,
  items: answer.items.map((item) => translateFields(item, timeoutKinds)),
});

export const encodeThroughput = (answer: ThroughputAnswer): analyticsV1.Throughput =>
  translateFields(answer, granularity);

export const encodeTokens = (answer: TokensAnswer): analyticsV1.Tokens => translateFields(answer, range);

/** Answers without a closed-set field go out as the use case built them. */
export const asIs = <Answer>(answer: Answer): Answer => answer;
