import { AGENT_SORT_KEYS } from '@platform/contracts';
import type * as observabilityV1 from '@platform/contracts/platform/observability/v1/analytics';
import { agentNames } from '../../data/agent-directory-repository.js';
import { countsByEntity, NO_COUNTS } from '../../data/count-queries.js';
import { percentilesBy, type EntitySelection } from '../../data/histogram-queries.js';
import { METRIC, SOURCE } from '../facts/fact-rules.js';
import { agentStats, entityTrend } from './entity-stats.js';
import type { AnalyticsDeps } from './overview.js';
import { entityPage } from './entity-page.js';
import type { PercentileSet } from '../../data/percentiles.js';
import type { AgentDetailAnswer } from './answers.js';
import { entityIdOf, granularityOf, pagingOf, timeRangeOf, windowOf } from './parameters.js';
import type { EntityInput, EntityListInput } from './requests.js';

/** GET /agents: every agent with facts in the range, sorted and paged in memory (one row per agent). */
export function listAgents(
  deps: AnalyticsDeps,
  request: EntityListInput,
): Promise<observabilityV1.AgentList> {
  const range = timeRangeOf(request.time_range);
  const paging = pagingOf(request, AGENT_SORT_KEYS.names, 'requests');
  const key = {
    time_range: range,
    page: paging.page,
    page_size: paging.pageSize,
    sort_by: paging.sortBy,
    desc: paging.descending,
  };
  return deps.cache.through('agents', key, async () => {
    const window = windowOf(range, deps.now());
    const page = await entityPage({
      paging,
      counts: countsByEntity(deps, SOURCE.agent, window),
      percentiles: async (entities: EntitySelection, level?: number) => {
        const [latency, ttft] = await Promise.all([
          percentilesBy(deps, [SOURCE.agent], METRIC.latency, window, entities, level ? [level] : undefined),
          level
            ? new Map<string, PercentileSet>()
            : percentilesBy(deps, [SOURCE.agent], METRIC.ttft, window, entities),
        ]);
        return (id) => [latency.get(id), ttft.get(id)];
      },
      build: (id, counts, [latency, ttft]) => agentStats(id, '', counts, latency, ttft),
      idOf: (agent) => agent.agent_id,
    });
    const names = await agentNames(
      deps.pool,
      page.items.map((a) => a.agent_id),
    );
    return { ...page, items: page.items.map((a) => ({ ...a, agent_name: names.get(a.agent_id) ?? '' })) };
  });
}

/** GET /agent/{agent_id}: the agent's figures and its trend (an unknown agent: zeros). */
export function getAgent(deps: AnalyticsDeps, request: EntityInput): Promise<AgentDetailAnswer> {
  const range = timeRangeOf(request.time_range);
  entityIdOf(request.id, 'agent_id');
  return deps.cache.through('agent', { id: request.id, time_range: range }, async () => {
    const now = deps.now();
    const window = windowOf(range, now);
    const granularity = granularityOf(undefined, range);
    const [counts, latency, ttft, trend, names] = await Promise.all([
      countsByEntity(deps, SOURCE.agent, window, request.id),
      percentilesBy(deps, [SOURCE.agent], METRIC.latency, window, [request.id]),
      percentilesBy(deps, [SOURCE.agent], METRIC.ttft, window, [request.id]),
      entityTrend(deps, window, granularity, SOURCE.agent, request.id, now),
      agentNames(deps.pool, [request.id]),
    ]);
    const agent = agentStats(
      request.id,
      names.get(request.id) ?? '',
      counts.get(request.id) ?? NO_COUNTS,
      latency.get(request.id),
      ttft.get(request.id),
    );
    return { agent, time_range: range, granularity, trend };
  });
}
