import type { Principal } from '@platform/grpc';
import { updateWorkflowRow, type WorkflowRow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { loadWorkflowFor, workflowNotFound } from './workflow-access.js';
import { toWorkflowPatch, type WorkflowFields } from './workflow-rules.js';

export type UpdateWorkflowDeps = Pick<WorkflowsDependencies, 'pool' | 'teams' | 'config' | 'logger'>;

/**
 * The normal update path (PUT /workflows/{id}, and the ephemeral store's publish writing a
 * version's nodes, edges and config back into the definition): needs `change` access; only the
 * fields given change; `version` grows by one only when the definition differs from the stored
 * one. One UPDATE statement under the row lock, so concurrent writers never lose an increment.
 */
export async function updateWorkflow(
  deps: UpdateWorkflowDeps,
  caller: Principal,
  workflowId: string,
  fields: WorkflowFields,
): Promise<WorkflowRow> {
  const patch = toWorkflowPatch(fields, deps.config.MAX_DEFINITION_BYTES);
  await loadWorkflowFor(deps, caller, workflowId, 'change');
  const row = await updateWorkflowRow(deps.pool, workflowId, patch);
  // Deleted between the access check and the update.
  if (!row) throw workflowNotFound();
  deps.logger.debug({ workflow_id: row.id, version: row.version }, 'workflow updated');
  return row;
}
