import { isUuid } from '@platform/errors';
import { workflowNames } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';

const MAX_NAME_IDS = 1000;

/** Names for other services (apikeys): deleted workflows flagged, unknown ids left out. */
export async function getWorkflowNames(
  deps: Pick<WorkflowsDependencies, 'pool'>,
  ids: string[],
): Promise<{ id: string; name: string; deleted: boolean }[]> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))].slice(0, MAX_NAME_IDS);
  if (wanted.length === 0) return [];
  return workflowNames(deps.pool, wanted);
}
