import type { apikeysV1 } from '@platform/contracts';
import { BusinessError, ErrorCode, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findKey, keyStats, listKeys, type KeyStatus } from '../../data/api-keys-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
import { isGlobalAdmin } from '@platform/rbac';
import { ownerScope } from './key-rules.js';
import { toRecord, toRecords } from './key-views.js';

/** A list request with the status filter by name (the handler translated the enum values). */
export type ListKeysRequest = Omit<apikeysV1.ListApiKeysRequest, 'status'> & { status: KeyStatus[] };

/**
 * Paged list, newest first. Non-admins see their own keys only and their `user_id` filter is
 * ignored; global admins see every key and may filter by owner.
 */
export async function listApiKeys(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: ListKeysRequest,
): Promise<apikeysV1.ListApiKeysResponse> {
  const { page, pageSize, limit, offset } = readPaging(request.page, request.page_size);
  const ownerIds = isGlobalAdmin(caller)
    ? request.user_ids.length > 0
      ? request.user_ids
      : null
    : [caller.user_id];
  const { rows, total } = await listKeys(
    deps.pool,
    {
      ownerIds,
      statuses: request.status,
      search: request.search?.trim(),
    },
    limit,
    offset,
  );
  return { items: await toRecords(deps, rows), total, page, page_size: pageSize };
}

export async function getApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  id: string,
): Promise<apikeysV1.ApiKeyRecord> {
  const row = await findKey(deps.pool, id, ownerScope(caller));
  if (!row) throw new BusinessError(ErrorCode.NOT_FOUND);
  return toRecord(deps, row);
}

/** Counts over the keys the caller may see (the list's visibility rule, no filters). */
export async function getApiKeyStats(
  deps: ApiKeysDependencies,
  caller: Principal,
): Promise<apikeysV1.ApiKeyStats> {
  return keyStats(deps.pool, ownerScope(caller));
}
