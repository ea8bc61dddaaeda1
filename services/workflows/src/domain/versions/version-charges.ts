import { BusinessError } from '@platform/errors';
import type { LedgerEntry } from '../../data/version-budget.js';
import { chargedBytes, type VersionBody, type VersionMeta } from '../../data/version-store.js';
import type { VersionDeps } from './read-versions.js';

/** A version about to be stored, with what it costs its creator. */
export interface ChargedVersion {
  meta: VersionMeta;
  body: VersionBody;
  bytes: number;
}

/** Sets `charged_bytes` on the meta (kept with the record, so eviction can give it back). */
export function withCharge(meta: VersionMeta, body: VersionBody): ChargedVersion {
  const bytes = chargedBytes(body);
  return { meta: { ...meta, charged_bytes: bytes }, body, bytes };
}

const entryOf = ({ meta, bytes }: ChargedVersion): LedgerEntry => ({
  workflowId: meta.workflow_id,
  versionId: meta.id,
  bytes,
});

/**
 * Reserves the versions' bytes in the caller's budget before anything is written (all or none).
 * On refusal, the oldest ledger entries whose versions have gone (expired with their workflow,
 * or a crash between the two stores) are pruned once and the reservation retried; still over the
 * budget is 400 / 5400 `workflow_versions_budget_exceeded` with `{limit, used, needed}`.
 */
export async function chargeVersions(deps: VersionDeps, userId: string, versions: ChargedVersion[]) {
  const entries = versions.map(entryOf);
  const limit = deps.config.VERSIONS_MAX_BYTES_PER_USER;
  let outcome = await deps.versions.budget.reserve(userId, entries, limit);
  if (!outcome.reserved && (await pruneGone(deps, userId)) > 0) {
    outcome = await deps.versions.budget.reserve(userId, entries, limit);
  }
  if (outcome.reserved) return;
  const needed = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  throw BusinessError.named('workflow_versions_budget_exceeded', {
    data: { limit, used: outcome.used, needed },
  });
}

/** Gives the bytes back when storing failed after the reservation. */
export async function refundVersions(deps: VersionDeps, userId: string, versions: ChargedVersion[]) {
  await deps.versions.budget.release(userId, versions.map(entryOf));
}

/** Runs the store write of versions already charged; refunds them if it fails. */
export async function storeCharged<T>(
  deps: VersionDeps,
  userId: string,
  versions: ChargedVersion[],
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await refundVersions(deps, userId, versions).catch(() => undefined);
    throw error;
  }
}

async function pruneGone(deps: VersionDeps, userId: string): Promise<number> {
  const oldest = await deps.versions.budget.oldest(userId);
  const exists = await deps.versions.existing(oldest);
  const gone = oldest.filter((_, index) => !exists[index]);
  return gone.length > 0 ? deps.versions.budget.release(userId, gone) : 0;
}
