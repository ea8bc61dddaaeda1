import type { Principal } from '@platform/grpc';
import { deleteWorkflowRow, findWorkflow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { withLockedWorkflow } from './workflow-snapshots.js';

/**
 * Deletes a workflow and its snapshots (one transaction, under the row lock), keeps a tombstone
 * (API keys stay bound to the id: an empty binding list would mean "all workflows"), then purges
 * the ephemeral versions. A purge that fails is logged: those versions can no longer be reached
 * (every /workflow-versions call loads the workflow first) and expire on their own.
 */
export async function deleteWorkflow(
  deps: Pick<WorkflowsDependencies, 'pool' | 'teams' | 'logger' | 'purgers'>,
  caller: Principal,
  workflowId: string,
): Promise<{ id: string }> {
  await withLockedWorkflow(deps, caller, workflowId, async (tx) => {
    const row = await findWorkflow(tx, workflowId);
    await deleteWorkflowRow(tx, row!, caller.user_id);
  });
  for (const purger of deps.purgers) {
    await purger.deleteAllVersions(workflowId).catch((error: unknown) => {
      deps.logger.error(
        { err: error, workflow_id: workflowId },
        'purging ephemeral workflow versions failed',
      );
    });
  }
  deps.logger.info({ workflow_id: workflowId, deleted_by: caller.user_id }, 'workflow deleted');
  return { id: workflowId };
}
