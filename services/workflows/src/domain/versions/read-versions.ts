import { BusinessError, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import {
  type StoredVersion,
  type VersionMeta,
  type VersionStats,
  type VersionStatus,
  type VersionStore,
} from '../../data/version-store.js';
import type { WorkflowsDependencies } from '../../deps.js';
import type { WorkflowRow } from '../../data/workflows-repository.js';
import { loadWorkflowFor, type WorkflowAccessLevel } from '../workflow-access.js';
import { diffVersions, type VersionDiff } from './version-diff.js';
import { contentOf, versionNotFound } from './version-rules.js';

/** What the `/workflow-versions` use cases depend on. */
export type VersionDeps = Pick<WorkflowsDependencies, 'pool' | 'teams' | 'config' | 'logger' | 'now'> & {
  versions: VersionStore;
};

export const HISTORY_LIMITS = { defaultLimit: 20, maxLimit: 100, maxOffset: 2_147_483_647 } as const;

/** A version of a workflow the caller may reach at `read`; an unknown or malformed id is 404 / 4000. */
export async function findVersion(
  deps: VersionDeps,
  workflowId: string,
  versionId: string,
): Promise<StoredVersion> {
  const version = isUuid(versionId) ? await deps.versions.get(workflowId, versionId) : null;
  if (!version) throw versionNotFound();
  return version;
}

/**
 * The workflow (at `level`) and one of its versions, both round trips at once; the access check
 * still decides first what the caller learns (no access: the workflow's 404, whatever the version).
 */
export async function loadWorkflowAndVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  versionId: string,
  level: WorkflowAccessLevel,
): Promise<{ workflow: WorkflowRow; version: StoredVersion }> {
  const [workflow, version] = await Promise.all([
    loadWorkflowFor(deps, caller, workflowId, level),
    findVersion(deps, workflowId, versionId).catch((error: unknown) => error as Error),
  ]);
  if (version instanceof Error) throw version;
  return { workflow, version };
}

export async function getVersion(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  versionId: string,
): Promise<StoredVersion> {
  return (await loadWorkflowAndVersion(deps, caller, workflowId, versionId, 'read')).version;
}

/** limit 1-100 (0 = the default 20), offset >= 0; the status arrives checked (a proto enum). */
export function checkHistoryPage(limit: number, offset: number, status: VersionStatus | undefined) {
  const errors: Record<string, string[]> = {};
  const effective = limit === 0 ? HISTORY_LIMITS.defaultLimit : limit;
  if (!Number.isInteger(effective) || effective < 1 || effective > HISTORY_LIMITS.maxLimit) {
    errors.limit = [`must be between 1 and ${HISTORY_LIMITS.maxLimit}`];
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > HISTORY_LIMITS.maxOffset) {
    errors.offset = ['must be an integer >= 0'];
  }
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  return { limit: effective, offset, status };
}

export async function versionHistory(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  page: { limit: number; offset: number; status?: VersionStatus },
): Promise<{ items: VersionMeta[]; total: number }> {
  const [, history] = await Promise.all([
    loadWorkflowFor(deps, caller, workflowId, 'read'),
    deps.versions.history(workflowId, page),
  ]);
  return history;
}

export async function versionStats(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
): Promise<VersionStats> {
  const [, stats] = await Promise.all([
    loadWorkflowFor(deps, caller, workflowId, 'read'),
    deps.versions.stats(workflowId),
  ]);
  return stats;
}

/** Both versions must belong to the workflow; each unknown one is 404 / 4000. */
export async function diffWorkflowVersions(
  deps: VersionDeps,
  caller: Principal,
  workflowId: string,
  fromVersion: string,
  toVersion: string,
): Promise<VersionDiff> {
  const errors: Record<string, string[]> = {};
  if (!isUuid(fromVersion)) errors.from_version = ['must be a version UUID'];
  if (!isUuid(toVersion)) errors.to_version = ['must be a version UUID'];
  if (Object.keys(errors).length > 0) throw BusinessError.validation(errors);
  // The access check and both versions in parallel (one Redis round trip for the two); a caller
  // without access gets the workflow's 404 whatever the versions are.
  const [, [from, to]] = await Promise.all([
    loadWorkflowFor(deps, caller, workflowId, 'read'),
    deps.versions.getMany(workflowId, [fromVersion, toVersion]),
  ]);
  if (!from || !to) throw versionNotFound();
  return diffVersions(contentOf(from), contentOf(to));
}
