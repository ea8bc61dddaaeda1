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

export const ANALYTICS_SERVICE_NAME = 'platform.observability.v1.AnalyticsService';

/** The admin analytics RPCs: every one needs superuser or `admin:dashboard:access`. */
export function analyticsGrpc(deps: ObservabilityDependencies) {
  /** A handler: the permission check, then the use case on the decoded request. */
  const guarded =
    <Request, Input, Answer>(
      decode: (request: Request) => Input,
      useCase: (deps: ObservabilityDependencies, input: Input) => Promise<Answer>,
    ) =>
    (request: Request, { principal }: CallContext) => {
      requireDashboard(principal);
      return useCase(deps, decode(request));
    };
  return registration(ANALYTICS_SERVICE_NAME, analyticsV1.AnalyticsServiceService, {
    getOverview: guarded(decodeRange, getOverview),
    listAgents: guarded(decodeAgentList, listAgents),
    getAgent: guarded(decodeEntity, getAgent),
    listWorkflows: guarded(decodeWorkflowList, listWorkflows),
    getWorkflow: guarded(decodeEntity, getWorkflow),
    listTimeouts: guarded(decodeTimeouts, listTimeouts),
    getThroughput: guarded(decodeThroughput, getThroughput),
    getTokens: guarded(decodeRange, getTokens),
  });
}
