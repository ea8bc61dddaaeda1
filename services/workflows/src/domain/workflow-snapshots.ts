import type { PresentationModeName } from '@platform/contracts';
import { withTransaction, type PoolClient } from '@platform/db';
import { BusinessError, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findSnapshot, snapshotCurrentState, type SnapshotRow } from '../data/snapshots-repository.js';
import { markPublished, restoreWorkflowRow, type WorkflowRow } from '../data/workflows-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { hasWorkflowAccess, workflowNotFound } from './workflow-access.js';
import { FIELD_LIMITS } from './workflow-rules.js';

type SnapshotDeps = Pick<WorkflowsDependencies, 'pool' | 'teams' | 'logger'>;

/**
 * Runs `change` on the workflow inside one transaction holding its row lock (SELECT … FOR UPDATE):
 * PUTs, publishes, snapshots, restores and deletes of one workflow run one after another, each
 * seeing the version the previous one left. The unique (workflow_id, version) constraint is the
 * second guard: whatever path races, one version never gets two snapshots.
 */
export async function withLockedWorkflow<T>(
  deps: SnapshotDeps,
  caller: Principal,
  workflowId: string,
  change: (tx: PoolClient, row: WorkflowRow) => Promise<T>,
): Promise<T> {
  if (!isUuid(workflowId)) throw workflowNotFound();
  return withTransaction(deps.pool, async (tx) => {
    const { rows } = await tx.query<WorkflowRow>(
      `SELECT id, owner_id, team_id, version FROM workflows WHERE id = $1 FOR UPDATE`,
      [workflowId],
    );
    const row = rows[0];
    if (!row || !(await hasWorkflowAccess(deps, caller, row, 'change'))) throw workflowNotFound();
    return change(tx, row);
  });
}

function checkDescription(description: string | undefined): void {
  if (description !== undefined && description.length > FIELD_LIMITS.description) {
    throw BusinessError.validation({
      description: [`must be at most ${FIELD_LIMITS.description} characters`],
    });
  }
}

/** Snapshot now: a second snapshot of the same version is refused with 409 / 1002. */
export async function createWorkflowSnapshot(
  deps: SnapshotDeps,
  caller: Principal,
  workflowId: string,
  description: string,
): Promise<SnapshotRow> {
  checkDescription(description);
  return withLockedWorkflow(deps, caller, workflowId, async (tx, row) => {
    const snapshot = await snapshotCurrentState(tx, workflowId, description, caller.user_id);
    if (!snapshot) throw BusinessError.named('workflow_snapshot_exists', { data: { version: row.version } });
    return snapshot;
  });
}

/**
 * Publish: a snapshot of the current version unless one exists (skipped, not refused), the
 * workflow `published` in the chosen presentation mode, pointing at that version.
 */
export async function publishWorkflow(
  deps: SnapshotDeps,
  caller: Principal,
  workflowId: string,
  /** Checked at the gRPC edge (a proto enum). */
  presentationMode: PresentationModeName,
): Promise<WorkflowRow> {
  return withLockedWorkflow(deps, caller, workflowId, async (tx, row) => {
    await snapshotCurrentState(tx, workflowId, `Published version ${row.version}`, caller.user_id);
    const published = await markPublished(tx, workflowId, presentationMode, row.version);
    deps.logger.info({ workflow_id: workflowId, version: row.version }, 'workflow published');
    return published;
  });
}

/**
 * Restore: the current state is snapshotted (kept as is when its version has one already), the
 * workflow takes the target's definition, variables, trigger type and config at `version` + 1,
 * and that restored state is snapshotted too, all in one transaction.
 */
export async function restoreWorkflowSnapshot(
  deps: SnapshotDeps,
  caller: Principal,
  workflowId: string,
  version: number,
  description: string | undefined,
): Promise<WorkflowRow> {
  checkDescription(description);
  return withLockedWorkflow(deps, caller, workflowId, async (tx, row) => {
    const target =
      Number.isInteger(version) && version >= 1 ? await findSnapshot(tx, workflowId, version) : null;
    if (!target) throw BusinessError.named('workflow_snapshot_not_found', { data: { version } });
    await snapshotCurrentState(tx, workflowId, `Before restoring version ${version}`, caller.user_id);
    const restored = await restoreWorkflowRow(tx, workflowId, target);
    await snapshotCurrentState(
      tx,
      workflowId,
      description || `Restored from version ${version}`,
      caller.user_id,
    );
    deps.logger.info(
      {
        workflow_id: workflowId,
        from_version: row.version,
        restored_version: version,
        version: restored.version,
      },
      'workflow restored',
    );
    return restored;
  });
}
