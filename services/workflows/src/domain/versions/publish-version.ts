import { randomUUID } from 'node:crypto';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import type { StoredVersion, VersionStatus } from '../../data/version-store.js';
import type { WorkflowRow } from '../../data/workflows-repository.js';
import { updateWorkflow } from '../update-workflow.js';
import { loadWorkflowAndVersion, type VersionDeps } from './read-versions.js';
import { chargeVersions, storeCharged, withCharge, type ChargedVersion } from './version-charges.js';
import {
  composeDefinition,
  contentOf,
  countsOf,
  newVersionMeta,
  schemaVersionOf,
  splitDefinition,
  versionNotFound,
} from './version-rules.js';

export interface PublishedVersion {
  version: StoredVersion;
  /** The workflow's integer `version` after the write-back. */
  workflowVersion: number;
  /** Rollback: the version kept as the backup (archived), or null. */
  backupVersionId: string | null;
}

/**
 * Status changes run under the workflow's version lock (VersionStore.withWorkflowLock): each writes
 * the workflow row in Postgres and then the version state in Redis, and only serializing the pair
 * keeps the workflow's definition equal to the version last published. The Redis half is one Lua
 * script besides, so even a lock lost to its TTL never leaves two versions `published`.
 */
async function locked<T>(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  fn: () => Promise<T>,
): Promise<T> {
  const outcome = await deps.versions.withWorkflowLock(workflowId, fn);
  if (!outcome.ran) throw BusinessError.named('workflow_version_busy');
  // The write kept the workflow's versions 30 more days: the caller's byte ledger lives as long.
  await deps.versions.budget.touch(caller.user_id);
  return outcome.value;
}

/** Writes the content back through the normal update path (version and snapshot rules apply). */
async function writeBack(
  deps: VersionDeps,
  caller: Principal,
  current: WorkflowRow,
  version: StoredVersion,
): Promise<WorkflowRow> {
  const definition = composeDefinition(contentOf(version), schemaVersionOf(current.definition));
  return updateWorkflow(deps, caller, current.id, { definition });
}

/**
 * `published`, its nodes, edges and config written back to the workflow's definition; the version
 * published before becomes `archived`. Publishing the published version again writes it back again.
 */
export async function publishVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  versionId: string,
): Promise<PublishedVersion> {
  return locked(deps, caller, workflowId, async () => {
    const { workflow, version } = await loadWorkflowAndVersion(deps, caller, workflowId, versionId, 'change');
    const after = await writeBack(deps, caller, workflow, version);
    const moved = await deps.versions.setStatus(
      workflowId,
      version.id,
      'published',
      deps.now().toISOString(),
    );
    if (!moved) throw versionNotFound();
    return {
      version: { ...moved.meta, body: version.body },
      workflowVersion: after.version,
      backupVersionId: null,
    };
  });
}

/** `archived`; other versions and the workflow are untouched (archiving the published one leaves none). */
export async function archiveVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  versionId: string,
): Promise<StoredVersion> {
  return locked(deps, caller, workflowId, async () => {
    const { version } = await loadWorkflowAndVersion(deps, caller, workflowId, versionId, 'change');
    const moved = await deps.versions.setStatus(workflowId, version.id, 'archived', deps.now().toISOString());
    if (!moved) throw versionNotFound();
    return { ...moved.meta, body: version.body };
  });
}

/**
 * A new version copied from `versionId`, published (written back to the workflow). With
 * `createBackup` the version published until now becomes `archived` as the backup; when none was
 * published, the workflow's definition as it was is saved as an archived version instead, so the
 * state rolled away from is never lost. Without it the previously published version returns to
 * `draft` (it cannot stay published: there is only ever one).
 */
export async function rollbackVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  versionId: string,
  createBackup: boolean,
): Promise<PublishedVersion> {
  return locked(deps, caller, workflowId, async () => {
    const [{ workflow: before, version: target }, previous] = await Promise.all([
      loadWorkflowAndVersion(deps, caller, workflowId, versionId, 'change'),
      deps.versions.publishedId(workflowId),
    ]);
    const now = deps.now();
    const backup = createBackup && !previous ? backupOf(workflowId, before, target.id, caller, now) : null;
    const copy = withCharge(
      newVersionMeta({
        id: randomUUID(),
        workflowId,
        description: `Rollback to ${target.id}`,
        status: 'published',
        createdBy: caller.user_id,
        now,
        counts: { nodes: target.node_count, edges: target.edge_count },
        sourceVersionId: target.id,
      }),
      target.body,
    );
    // Charged before the write-back: a refusal leaves the workflow as it was.
    const created = backup ? [backup, copy] : [copy];
    await chargeVersions(deps, caller.user_id, created);
    const after = await storeCharged(deps, caller.user_id, created, async () => {
      const written = await writeBack(deps, caller, before, target);
      if (backup) await deps.versions.create(backup.meta, backup.body);
      const demoteTo: VersionStatus = createBackup ? 'archived' : 'draft';
      await deps.versions.create(copy.meta, copy.body, demoteTo);
      return written;
    });
    return {
      version: { ...copy.meta, body: copy.body },
      workflowVersion: after.version,
      backupVersionId: createBackup ? (backup?.meta.id ?? previous) : null,
    };
  });
}

/** The workflow's definition as it was, kept as an archived version (rollback without a published one). */
function backupOf(
  workflowId: string,
  before: WorkflowRow,
  targetId: string,
  caller: Principal,
  now: Date,
): ChargedVersion {
  const definition = JSON.parse(before.definition) as Record<string, unknown>;
  const meta = newVersionMeta({
    id: randomUUID(),
    workflowId,
    description: `Backup before rollback to ${targetId}`,
    status: 'archived',
    createdBy: caller.user_id,
    now,
    counts: countsOf(definition),
  });
  return withCharge(meta, splitDefinition(definition));
}
