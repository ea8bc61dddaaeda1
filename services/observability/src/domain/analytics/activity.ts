import { TIMEOUT_SORT_KEYS, TIMEOUT_SOURCES } from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import { agentNames } from '../../data/agent-directory-repository.js';
import {
  countsBySource,
  countSeries,
  NO_COUNTS,
  runningWorkflows,
  tokensByModel,
} from '../../data/count-queries.js';
import { listTimeoutEvents } from '../../data/timeout-queries.js';
import type { ObservabilityDependencies } from '../../deps.js';
import { SOURCE } from '../facts/fact-rules.js';
import { buckets } from './entity-stats.js';
import { currentQps, type AnalyticsDeps } from './overview.js';
import type { ThroughputAnswer, TimeoutListAnswer, TokensAnswer } from './answers.js';
import { granularityOf, pagingOf, timeRangeOf, windowOf } from './parameters.js';
import type { ThroughputInput, TimeoutListInput } from './requests.js';

type Deps = AnalyticsDeps & Pick<ObservabilityDependencies, 'workflowNames' | 'quotaUsage'>;

/**
 * GET /timeouts: workflow runs that timed out (`timeout_type` workflow) and agent rounds that ended
 * in `error` (`unknown`: the agent runtime does not say why, hence `agent_timeout_type_available`).
 */
export function listTimeouts(deps: Deps, request: TimeoutListInput): Promise<TimeoutListAnswer> {
  const range = timeRangeOf(request.time_range);
  const source = request.source || 'all';
  if (!TIMEOUT_SOURCES.has(source)) {
    throw BusinessError.validation({ source: ['must be all, agent or workflow'] });
  }
  const paging = pagingOf(request, TIMEOUT_SORT_KEYS.names, 'occurred_at');
  const key = {
    time_range: range,
    source,
    page: paging.page,
    page_size: paging.pageSize,
    sort_by: paging.sortBy,
    desc: paging.descending,
  };
  return deps.cache.through('timeouts', key, async () => {
    const window = windowOf(range, deps.now());
    const { rows, total } = await listTimeoutEvents(deps, window, source, paging);
    const [agents, workflows] = await Promise.all([
      agentNames(
        deps.pool,
        rows.filter((r) => r.source === 'agent').map((r) => r.entity_id),
      ),
      deps.workflowNames.names(rows.filter((r) => r.source === 'workflow').map((r) => r.entity_id)),
    ]);
    return {
      items: rows.map((row) => ({
        id: row.id,
        source: row.source,
        timeout_type: row.source === 'workflow' ? 'workflow' : 'unknown',
        entity_id: row.entity_id,
        entity_name: (row.source === 'agent' ? agents : workflows).get(row.entity_id) ?? '',
        status: row.status,
        duration_ms: Number(row.duration_ms),
        user_id: row.user_id,
        occurred_at: new Date(row.occurred_at).toISOString(),
      })),
      total,
      page: paging.page,
      page_size: paging.pageSize,
      agent_timeout_type_available: false,
    };
  });
}

/** GET /throughput: current qps, running workflows, and requests per bucket. */
export function getThroughput(deps: AnalyticsDeps, request: ThroughputInput): Promise<ThroughputAnswer> {
  const range = timeRangeOf(request.time_range);
  const granularity = granularityOf(request.granularity, range);
  return deps.cache.through('throughput', { time_range: range, granularity }, async () => {
    const now = deps.now();
    const window = windowOf(range, now);
    const [qps, running, rows] = await Promise.all([
      currentQps(deps),
      runningWorkflows(deps),
      countSeries(deps, window, granularity),
    ]);
    const byBucket = new Map<string, { agent: number; workflow: number }>();
    for (const row of rows) {
      const entry = byBucket.get(row.bucket) ?? { agent: 0, workflow: 0 };
      if (row.source === SOURCE.agent) entry.agent += row.counts.requests;
      else entry.workflow += row.counts.requests;
      byBucket.set(row.bucket, entry);
    }
    const series = buckets(window, granularity, now, [...byBucket.keys()]).map((bucket) => {
      const entry = byBucket.get(bucket) ?? { agent: 0, workflow: 0 };
      return {
        bucket,
        requests: entry.agent + entry.workflow,
        agent_requests: entry.agent,
        workflow_runs: entry.workflow,
      };
    });
    return { qps, running_workflows: running, granularity, series };
  });
}

/**
 * GET /tokens: by source and by model from the facts; for 7d and 30d the total is compared with
 * the team model quota counters and the larger wins (spec Tokens rule).
 */
export function getTokens(deps: Deps, request: { time_range: string }): Promise<TokensAnswer> {
  const range = timeRangeOf(request.time_range);
  return deps.cache.through('tokens', { time_range: range }, async () => {
    const now = deps.now();
    const window = windowOf(range, now);
    const [bySource, byModel, quota] = await Promise.all([
      countsBySource(deps, window),
      tokensByModel(deps, window),
      (range === '7d' || range === '30d') && window.from
        ? deps.quotaUsage.tokensBetween(window.from, now).catch(() => null)
        : Promise.resolve(null),
    ]);
    const agent = (bySource.get(SOURCE.agent) ?? NO_COUNTS).tokens;
    const workflow = (bySource.get(SOURCE.workflow) ?? NO_COUNTS).tokens;
    const facts = agent + workflow;
    return {
      time_range: range,
      total: quota === null ? facts : Math.max(facts, quota),
      by_source: { agent, workflow, other: 0 },
      by_model: byModel,
      quota_counters_used: quota !== null,
    };
  });
}
