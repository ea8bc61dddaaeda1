import { BusinessError, isUuid, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { holdsEverything } from '@platform/rbac';
import { findSnapshot, listSnapshots, type SnapshotRow } from '../data/snapshots-repository.js';
import { listWorkflows as listRows, type WorkflowRow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { loadWorkflowFor } from './workflow-access.js';

type ReadDeps = Pick<WorkflowsDependencies, 'pool' | 'teams'>;

export interface Paging {
  page: number;
  pageSize: number;
}

/** 0 means the default; the gateway validated the range, the shared rule guards direct calls. */
export function checkPaging(page: number, pageSize: number): Paging {
  const window = readPaging(page, pageSize);
  return { page: window.page, pageSize: window.pageSize };
}

export interface WorkflowListQuery extends Paging {
  search?: string;
  teamId?: string;
  /** Checked at the gRPC edge (a proto enum). */
  status?: 'draft' | 'published';
}

/** The workflows the caller may read (all for a superuser), most recently updated first. */
export async function listWorkflows(
  deps: ReadDeps,
  caller: Principal,
  query: WorkflowListQuery,
): Promise<{ rows: WorkflowRow[]; total: number }> {
  const errors: Record<string, string[]> = {};
  if (query.teamId && !isUuid(query.teamId)) errors.team_id = ['must be a UUID'];
  if (query.search && query.search.length > 200) errors.search = ['must be at most 200 characters'];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  return listRows(deps.pool, {
    visibleTo: holdsEverything(caller) ? null : { userId: caller.user_id, teamIds: caller.team_ids },
    search: query.search || undefined,
    teamId: query.teamId || undefined,
    status: query.status || undefined,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
}

export function getWorkflow(deps: ReadDeps, caller: Principal, workflowId: string): Promise<WorkflowRow> {
  return loadWorkflowFor(deps, caller, workflowId, 'read');
}

/** Persisted snapshots, newest version first. */
export async function listWorkflowSnapshots(
  deps: ReadDeps,
  caller: Principal,
  workflowId: string,
  paging: Paging,
): Promise<{ rows: SnapshotRow[]; total: number }> {
  await loadWorkflowFor(deps, caller, workflowId, 'read');
  return listSnapshots(deps.pool, workflowId, paging.pageSize, (paging.page - 1) * paging.pageSize);
}

export async function getWorkflowSnapshot(
  deps: ReadDeps,
  caller: Principal,
  workflowId: string,
  version: number,
): Promise<SnapshotRow> {
  await loadWorkflowFor(deps, caller, workflowId, 'read');
  const row =
    Number.isInteger(version) && version >= 1 ? await findSnapshot(deps.pool, workflowId, version) : null;
  if (!row) throw BusinessError.named('workflow_snapshot_not_found', { data: { version } });
  return row;
}
