import { countsBySource, eventsBetween, NO_COUNTS, peakHourlyRequests } from '../../data/count-queries.js';
import { percentilesBy } from '../../data/histogram-queries.js';
import type { ObservabilityDependencies } from '../../deps.js';
import { METRIC, SOURCE } from '../facts/fact-rules.js';
import type { OverviewAnswer } from './answers.js';
import { percent, timeRangeOf, windowOf } from './parameters.js';
import { NO_PERCENTILES } from '../../data/percentiles.js';

type Overview = OverviewAnswer;
export type AnalyticsDeps = Pick<ObservabilityDependencies, 'pool' | 'gate' | 'cache' | 'now'>;

/** `current_qps`: request events in the preceding 60 seconds divided by 60. */
export async function currentQps(deps: AnalyticsDeps): Promise<number> {
  const now = deps.now();
  return (await eventsBetween(deps, new Date(now.getTime() - 60_000), now)) / 60;
}

/** GET /overview: the spec's definitions over the hourly counts and the histograms. */
export function getOverview(deps: AnalyticsDeps, request: { time_range: string }): Promise<Overview> {
  const range = timeRangeOf(request.time_range);
  return deps.cache.through('overview', { time_range: range }, async () => {
    const window = windowOf(range, deps.now());
    const [bySource, latency, ttft, peak, qps] = await Promise.all([
      countsBySource(deps, window),
      percentilesBy(deps, [SOURCE.agent, SOURCE.workflow], METRIC.latency, window, ''),
      percentilesBy(deps, [SOURCE.agent], METRIC.ttft, window, ''),
      peakHourlyRequests(deps, window),
      currentQps(deps),
    ]);
    const agent = bySource.get(SOURCE.agent) ?? NO_COUNTS;
    const workflow = bySource.get(SOURCE.workflow) ?? NO_COUNTS;
    const total = agent.requests + workflow.requests;
    return {
      time_range: range,
      totals: {
        agent_requests: agent.requests,
        workflow_runs: workflow.requests,
        total_requests: total,
        total_tokens: agent.tokens + workflow.tokens,
      },
      rates: {
        agent_success_rate: percent(agent.successes, agent.requests),
        workflow_success_rate: percent(workflow.successes, workflow.requests),
        overall_success_rate: percent(agent.successes + workflow.successes, total),
        timeout_rate: percent(agent.timeouts + workflow.timeouts, total),
      },
      latency: latency.get('') ?? NO_PERCENTILES,
      ttft: ttft.get('') ?? NO_PERCENTILES,
      throughput: { current_qps: qps, peak_hourly_requests: peak },
    };
  });
}
