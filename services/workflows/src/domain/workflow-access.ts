import type { Pool, PoolClient } from '@platform/db';
import { BusinessError, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasTeamRole, holdsEverything } from '@platform/rbac';
import { findWorkflow, type WorkflowRow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';

/**
 * `read`: see and run it (the owner, members of its team). `change`: update, publish, snapshot,
 * restore, delete (the owner, the team's OWNER/ADMIN). A superuser (or `*`: `holdsEverything`) may
 * do all; `admin:dashboard:access` alone (a global admin of dashboards and teams) does not.
 */
export type WorkflowAccessLevel = 'read' | 'change';
export type AccessDeps = Pick<WorkflowsDependencies, 'pool' | 'teams'>;

/**
 * The membership rule (issue 20): a team workflow belongs to its team, so every action on it needs
 * current membership of that team, its owner's included (a member removed from the team loses the
 * workflows he created there; the team keeps them, and re-adding him restores his access). A
 * personal workflow (no team) is its owner's alone. Team ids travel in the principal, which the
 * gateway re-reads on the next request after a membership change (identity moves the principal
 * revision), so this needs no call to identity. Exported for every check that repeats it (streams).
 */
export function isWithinWorkflowReach(
  caller: Pick<Principal, 'user_id' | 'team_ids'>,
  workflow: Pick<WorkflowRow, 'owner_id' | 'team_id'>,
): boolean {
  return workflow.team_id ? caller.team_ids.includes(workflow.team_id) : workflow.owner_id === caller.user_id;
}

export async function hasWorkflowAccess(
  deps: Pick<AccessDeps, 'teams'>,
  caller: Principal,
  workflow: Pick<WorkflowRow, 'owner_id' | 'team_id'>,
  level: WorkflowAccessLevel,
): Promise<boolean> {
  if (holdsEverything(caller)) return true;
  if (!isWithinWorkflowReach(caller, workflow)) return false;
  if (level === 'read' || workflow.owner_id === caller.user_id || !workflow.team_id) return true;
  // A team member who is not the owner changes it only as the team's OWNER or ADMIN (asked
  // uncached: a demoted admin loses change rights on the next request).
  return hasTeamRole(await deps.teams.roleOf(workflow.team_id, caller.user_id), 'ADMIN');
}

export function workflowNotFound(): BusinessError {
  return BusinessError.named('workflow_not_found');
}

/**
 * Loads a workflow for a caller who needs `level` access to it; a workflow that does not exist and
 * one the caller may not reach are the same 404 / 4000 (existence is not revealed). With `db` and
 * `forUpdate` (inside a transaction) the row stays locked until it ends, serializing changes.
 */
export async function loadWorkflowFor(
  deps: AccessDeps,
  caller: Principal,
  workflowId: string,
  level: WorkflowAccessLevel,
  options: { db?: Pool | PoolClient; forUpdate?: boolean } = {},
): Promise<WorkflowRow> {
  if (!isUuid(workflowId)) throw workflowNotFound();
  const row = await findWorkflow(options.db ?? deps.pool, workflowId, options.forUpdate ?? false);
  if (!row || !(await hasWorkflowAccess(deps, caller, row, level))) throw workflowNotFound();
  return row;
}
