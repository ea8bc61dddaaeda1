import { randomUUID } from 'node:crypto';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import type { StoredVersion } from '../../data/version-store.js';
import { isUuid, loadWorkflowFor } from '../workflow-access.js';
import { loadWorkflowAndVersion, type VersionDeps } from './read-versions.js';
import {
  checkDescription,
  checkVersionContent,
  countsOf,
  newVersionMeta,
  type VersionContent,
} from './version-rules.js';

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
  await deps.versions.create(meta, body);
  return { ...meta, body };
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
  await deps.versions.create(meta, source.body);
  return { ...meta, body: source.body };
}
