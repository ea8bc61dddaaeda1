import { randomUUID } from 'node:crypto';
import { BusinessError, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import type { StoredVersion } from '../../data/version-store.js';
import { loadWorkflowFor } from '../workflow-access.js';
import { loadWorkflowAndVersion, type VersionDeps } from './read-versions.js';
import { chargeVersions, storeCharged, withCharge, type ChargedVersion } from './version-charges.js';
import {
  checkDescription,
  checkVersionContent,
  countsOf,
  newVersionMeta,
  type VersionContent,
} from './version-rules.js';

/**
 * Stores a new version charged to its creator's byte budget (refused 400 / 5400 past it); the
 * workflow's oldest versions past its cap are evicted by the store in the same step.
 */
async function addCharged(deps: VersionDeps, version: ChargedVersion): Promise<StoredVersion> {
  const creator = version.meta.created_by;
  await chargeVersions(deps, creator, [version]);
  await storeCharged(deps, creator, [version], () => deps.versions.create(version.meta, version.body));
  return { ...version.meta, body: version.body };
}

/**
 * A new `draft` version of a workflow the caller may change; the workflow itself is not modified.
 * The content must be publishable (the definition rules of a PUT), checked now rather than at publish.
 */
export async function createVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  content: VersionContent,
  description: string,
): Promise<StoredVersion> {
  const body = checkVersionContent(content, description, deps.config.MAX_DEFINITION_BYTES);
  await loadWorkflowFor(deps, caller, workflowId, 'change');
  const meta = newVersionMeta({
    id: randomUUID(),
    workflowId,
    description,
    status: 'draft',
    createdBy: caller.user_id,
    now: deps.now(),
    counts: countsOf(content),
  });
  return addCharged(deps, withCharge(meta, body));
}

/**
 * Copies a version (of a workflow the caller may read) into another workflow (or the same one) as
 * a `draft` there; the caller must be allowed to change the target. `newName` becomes the copy's
 * description (default: the source's). Neither workflow is modified.
 */
export async function forkVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  request: { versionId: string; newWorkflowId: string; newName?: string },
): Promise<StoredVersion> {
  if (!isUuid(request.newWorkflowId)) {
    throw BusinessError.validation({ new_workflow_id: ['must be a workflow UUID'] });
  }
  if (request.newName !== undefined) checkDescription(request.newName, 'new_name');
  const [{ version: source }] = await Promise.all([
    loadWorkflowAndVersion(deps, caller, workflowId, request.versionId, 'read'),
    loadWorkflowFor(deps, caller, request.newWorkflowId, 'change'),
  ]);
  const meta = newVersionMeta({
    id: randomUUID(),
    workflowId: request.newWorkflowId,
    description: request.newName ?? source.description,
    status: 'draft',
    createdBy: caller.user_id,
    now: deps.now(),
    counts: { nodes: source.node_count, edges: source.edge_count },
    sourceVersionId: source.id,
  });
  return addCharged(deps, withCharge(meta, source.body));
}
