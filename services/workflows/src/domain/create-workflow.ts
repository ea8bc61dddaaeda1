import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { holdsEverything } from '@platform/rbac';
import { insertWorkflow, type WorkflowRow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { toWorkflowPatch, type WorkflowFields } from './workflow-rules.js';

export interface NewWorkflowInput extends WorkflowFields {
  name: string;
  definition: unknown;
  /** Empty or undefined: a personal workflow. */
  teamId?: string;
}

/**
 * Creates a workflow owned by the caller at version 1, as a draft. A team workflow needs the
 * caller to be in that team (a superuser: the team to exist); otherwise 404 / 4004, the same
 * answer for a team that does not exist, so team ids leak nothing.
 */
export async function createWorkflow(
  deps: Pick<WorkflowsDependencies, 'pool' | 'teams' | 'config' | 'logger'>,
  caller: Principal,
  input: NewWorkflowInput,
): Promise<WorkflowRow> {
  if (input.definition === undefined) throw BusinessError.validation({ definition: ['is required'] });
  const patch = toWorkflowPatch(input, deps.config.MAX_DEFINITION_BYTES);
  const teamId = input.teamId || null;
  if (teamId) {
    if (!isUuid(teamId)) throw BusinessError.validation({ team_id: ['must be a UUID'] });
    const member = caller.team_ids.includes(teamId);
    if (!member && !(holdsEverything(caller) && (await deps.teams.teamExists(teamId)))) {
      throw new BusinessError(ErrorCode.TEAM_NOT_FOUND);
    }
  }
  const row = await insertWorkflow(deps.pool, {
    name: patch.name!,
    description: patch.description ?? '',
    icon: patch.icon ?? null,
    visibility: patch.visibility ?? 'private',
    teamId,
    ownerId: caller.user_id,
    definition: patch.definition!,
    variables: patch.variables ?? '{}',
    triggerType: patch.triggerType ?? 'manual',
    triggerConfig: patch.triggerConfig ?? '{}',
  });
  deps.logger.info({ workflow_id: row.id, owner_id: row.owner_id }, 'workflow created');
  return row;
}
