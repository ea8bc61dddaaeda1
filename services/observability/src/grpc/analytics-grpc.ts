import * as analyticsV1 from '@platform/contracts/platform/observability/v1/analytics';
import { registration } from '@platform/grpc';
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
  return registration(ANALYTICS_SERVICE_NAME, analyticsV1.AnalyticsServiceService, {
    getOverview: (request, { principal }) => (requireDashboard(principal), getOverview(deps, decodeRange(request))),
    listAgents: (request, { principal }) => (requireDashboard(principal), listAgents(deps, decodeAgentList(request))),
    getAgent: (request, { principal }) => (requireDashboard(principal), getAgent(deps, decodeEntity(request))),
    listWorkflows: (request, { principal }) => (
      requireDashboard(principal), listWorkflows(deps, decodeWorkflowList(request))
    ),
    getWorkflow: (request, { principal }) => (requireDashboard(principal), getWorkflow(deps, decodeEntity(request))),
    listTimeouts: (request, { principal }) => (
      requireDashboard(principal), listTimeouts(deps, decodeTimeouts(request))
    ),
    getThroughput: (request, { principal }) => (
      requireDashboard(principal), getThroughput(deps, decodeThroughput(request))
    ),
    getTokens: (request, { principal }) => (requireDashboard(principal), getTokens(deps, decodeRange(request))),
  });
}
