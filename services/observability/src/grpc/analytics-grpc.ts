import * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import { registration, type CallContext } from '@platform/grpc';
import type { ObservabilityDependencies } from '../deps.js';
import { requireDashboard } from '../domain/analytics/access.js';
import { getThroughput, getTokens, listTimeouts } from '../domain/analytics/activity.js';
import { getAgent, listAgents } from '../domain/analytics/agents.js';
import { getOverview } from '../domain/analytics/overview.js';
import { getWorkflow, listWorkflows } from '../domain/analytics/workflows.js';
import {
  decodeAgentList,
  decodeEntity,
  decodeRange,
  decodeThroughput,
  decodeTimeouts,
  decodeWorkflowList,
} from './decode-requests.js';
import {
  asIs,
  encodeAgentDetail,
  encodeOverview,
  encodeThroughput,
  encodeTimeouts,
  encodeTokens,
  encodeWorkflowDetail,
} from './encode-answers.js';

export const ANALYTICS_SERVICE_NAME = 'platform.observability.v1.AnalyticsService';

/** The admin analytics RPCs: every one needs superuser or `admin:dashboard:access`. */
export function analyticsGrpc(deps: ObservabilityDependencies) {
  /** A handler: the permission check, then the use case on the decoded request, its answer encoded. */
  const guarded =
    <Request, Input, Answer, Message>(
      decode: (request: Request) => Input,
      useCase: (deps: ObservabilityDependencies, input: Input) => Promise<Answer>,
      encode: (answer: Answer) => Message,
    ) =>
    async (request: Request, { principal }: CallContext) => {
      requireDashboard(principal);
      return encode(await useCase(deps, decode(request)));
    };
  return registration(ANALYTICS_SERVICE_NAME, analyticsV1.AnalyticsServiceService, {
    getOverview: guarded(decodeRange, getOverview, encodeOverview),
    listAgents: guarded(decodeAgentList, listAgents, asIs),
    getAgent: guarded(decodeEntity, getAgent, encodeAgentDetail),
    listWorkflows: guarded(decodeWorkflowList, listWorkflows, asIs),
    getWorkflow: guarded(decodeEntity, getWorkflow, encodeWorkflowDetail),
    listTimeouts: guarded(decodeTimeouts, listTimeouts, encodeTimeouts),
    getThroughput: guarded(decodeThroughput, getThroughput, encodeThroughput),
    getTokens: guarded(decodeRange, getTokens, encodeTokens),
  });
}
