import { BusinessError, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import {
  findRun,
  findRunView,
  listNodeExecutions,
  listRuns,
  type NodeExecutionRow,
  type RunRow,
} from '../../data/runs-repository.js';
import type { WorkflowsDependencies } from '../../deps.js';
import { loadWorkflowFor } from '../workflow-access.js';
import { runsVisibleTo } from './run-visibility.js';

export type ReadRunsDeps = Pick<WorkflowsDependencies, 'pool' | 'teams'>;

export interface RunWithNodes {
  run: RunRow;
  nodes: NodeExecutionRow[];
}

/**
 * `GET /workflows/{id}/runs`: newest first, for whoever may read (and so run) the workflow; an API
 * key sees the runs `runsVisibleTo` allows.
 */
export async function listWorkflowRuns(
  deps: ReadRunsDeps,
  principal: Principal | undefined,
  workflowId: string,
  page: number,
  /** 1-100: the caller read it with the spec's paging rule (`readPaging`). */
  pageSize: number,
): Promise<{ items: RunWithNodes[]; total: number }> {
  const caller = requirePrincipal(principal);
  await loadWorkflowFor(deps, caller, workflowId, 'read');
  const { rows, total } = await listRuns(deps.pool, workflowId, page, pageSize, runsVisibleTo(caller));
  const nodes = await listNodeExecutions(
    deps.pool,
    rows.map((row) => row.id),
  );
  return { items: rows.map((run) => ({ run, nodes: nodes.get(run.id) ?? [] })), total };
}

/**
 * A run of a workflow the caller may read; another workflow's run, and a run the caller may not
 * see (`runsVisibleTo`), is not found.
 */
export async function loadRunFor(
  deps: ReadRunsDeps,
  principal: Principal | undefined,
  workflowId: string,
  runId: string,
): Promise<RunRow> {
  const caller = requirePrincipal(principal);
  await loadWorkflowFor(deps, caller, workflowId, 'read');
  const run = isUuid(runId) ? await findRun(deps.pool, workflowId, runId, runsVisibleTo(caller)) : null;
  if (!run) throw BusinessError.named('workflow_run_not_found');
  return run;
}

export async function getWorkflowRun(
  deps: ReadRunsDeps,
  principal: Principal | undefined,
  workflowId: string,
  runId: string,
): Promise<RunWithNodes> {
  const caller = requirePrincipal(principal);
  await loadWorkflowFor(deps, caller, workflowId, 'read');
  // Bounded: a run stored with outputs too large for one answer is still readable (flagged).
  const run = isUuid(runId) ? await findRunView(deps.pool, workflowId, runId, runsVisibleTo(caller)) : null;
  if (!run) throw BusinessError.named('workflow_run_not_found');
  const nodes = await listNodeExecutions(deps.pool, [run.id]);
  return { run, nodes: nodes.get(run.id) ?? [] };
}
