import type { NameOf, TIMEOUT_TYPES } from '@platform/contracts';
import type * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import type { TimeRange } from './parameters.js';
import type { Granularity } from './query-contract.js';

/**
 * The analytics answers as the use cases build them: the proto messages, but each closed-set field
 * by its JSON name (the range and granularity the figures cover, a timeout's source and type). The
 * gRPC edge encodes the names as the proto enums (grpc/encode-answers.ts); cached answers keep the
 * names, so a cache entry reads the same whatever the enum numbering.
 */
type WithNames<Message, Names> = Omit<Message, keyof Names> & Names;

export type OverviewAnswer = WithNames<analyticsV1.Overview, { time_range: TimeRange }>;

export type AgentDetailAnswer = WithNames<
  analyticsV1.AgentDetail,
  { time_range: TimeRange; granularity: Granularity }
>;

export type WorkflowDetailAnswer = WithNames<
  analyticsV1.WorkflowDetail,
  { time_range: TimeRange; granularity: Granularity }
>;

export type TimeoutEventAnswer = WithNames<
  analyticsV1.TimeoutEvent,
  { source: 'agent' | 'workflow'; timeout_type: NameOf<typeof TIMEOUT_TYPES> }
>;

export type TimeoutListAnswer = WithNames<analyticsV1.TimeoutList, { items: TimeoutEventAnswer[] }>;

export type ThroughputAnswer = WithNames<analyticsV1.Throughput, { granularity: Granularity }>;

export type TokensAnswer = WithNames<analyticsV1.Tokens, { time_range: TimeRange }>;
