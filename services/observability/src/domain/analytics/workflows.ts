import { WORKFLOW_SORT_KEYS } from '@platform/contracts';
import type * as observabilityV1 from '@platform/contracts/platform/observability/v1/analytics';
import { countsByEntity, NO_COUNTS, nodeTypeStats } from '../../data/count-queries.js';
import { percentilesBy, type EntitySelection } from '../../data/histogram-queries.js';
import type { ObservabilityDependencies } from '../../deps.js';
import { METRIC, SOURCE } from '../facts/fact-rules.js';
import { entityTrend, workflowStats } from './entity-stats.js';
import type { AnalyticsDeps } from './overview.js';
import { entityPage } from './entity-page.js';
import type { WorkflowDetailAnswer } from './answers.js';
import { entityIdOf, granularityOf, pagingOf, timeRangeOf, windowOf } from './parameters.js';
import type { EntityInput, EntityListInput } from './requests.js';

type Deps = AnalyticsDeps & Pick<ObservabilityDependencies, 'workflowNames'>;

/** GET /workflows: every workflow with final runs in the range, sorted and paged in memory. */
export function listWorkflows(deps: Deps, request: EntityListInput): Promise<observabilityV1.WorkflowList> {
  const range = timeRangeOf(request.time_range);
  const paging = pagingOf(request, WORKFLOW_SORT_KEYS.names, 'runs');
  const key = {
    time_range: range,
    page: paging.page,
    page_size: paging.pageSize,
    sort_by: paging.sortBy,
    desc: paging.descending,
  };
  return deps.cache.through('workflows', key, async () => {
    const window = windowOf(range, deps.now());
    const page = await entityPage({
      paging,
      counts: countsByEntity(deps, SOURCE.workflow, window),
      percentiles: async (entities: EntitySelection, level?: number) => {
        const latency = await percentilesBy(
          deps,
          [SOURCE.workflow],
          METRIC.latency,
          window,
          entities,
          level ? [level] : undefined,
        );
        return (id) => [latency.get(id)];
      },
      build: (id, counts, [latency]) => workflowStats(id, '', counts, latency),
      idOf: (workflow) => workflow.workflow_id,
    });
    const names = await deps.workflowNames.names(page.items.map((w) => w.workflow_id));
    return {
      ...page,
      items: page.items.map((w) => ({ ...w, workflow_name: names.get(w.workflow_id) ?? '' })),
    };
  });
}

/** GET /workflow/{workflow_id}: figures, trend, and the 20 most executed node types. */
export function getWorkflow(deps: Deps, request: EntityInput): Promise<WorkflowDetailAnswer> {
  const range = timeRangeOf(request.time_range);
  entityIdOf(request.id, 'workflow_id');
  return deps.cache.through('workflow', { id: request.id, time_range: range }, async () => {
    const now = deps.now();
    const window = windowOf(range, now);
    const granularity = granularityOf(undefined, range);
    const [counts, latency, trend, nodeTypes, names] = await Promise.all([
      countsByEntity(deps, SOURCE.workflow, window, request.id),
      percentilesBy(deps, [SOURCE.workflow], METRIC.latency, window, [request.id]),
      entityTrend(deps, window, granularity, SOURCE.workflow, request.id, now),
      nodeTypeStats(deps, request.id, window),
      deps.workflowNames.names([request.id]),
    ]);
    const workflow = workflowStats(
      request.id,
      names.get(request.id) ?? '',
      counts.get(request.id) ?? NO_COUNTS,
      latency.get(request.id),
    );
    return { workflow, time_range: range, granularity, trend, node_types: nodeTypes };
  });
}
