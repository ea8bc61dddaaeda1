import type { apikeysV1 } from '@platform/contracts';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import {
  deleteKey,
  findKey,
  findKeyPrefix,
  replaceBindings,
  updateKey,
} from '../../data/api-keys-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
import { checkKeyInput } from './create-api-key.js';
import { ownerScope } from './key-rules.js';
import { toOwnFields } from './key-views.js';

/**
 * Every change drops the key's verification revision after the commit and before answering, so
 * the change applies to the very next request on every gateway replica (see key-revisions.ts).
 * It is dropped before the change too: when Redis is down nothing changes (the caller gets an
 * error and retries) instead of committing a change the gateways could miss.
 */
async function withRevisionDropped<T>(
  deps: ApiKeysDependencies,
  caller: Principal,
  keyId: string,
  change: () => Promise<T>,
): Promise<T> {
  const prefix = await findKeyPrefix(deps.pool, keyId, ownerScope(caller));
  if (!prefix) throw new BusinessError(ErrorCode.NOT_FOUND);
  await deps.revisions.invalidate(prefix);
  const result = await change();
  await deps.revisions.invalidate(prefix);
  return result;
}

/** Partial update: only supplied fields change (`[]` clears a binding list = no restriction). */
export async function updateApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: apikeysV1.UpdateApiKeyRequest,
): Promise<apikeysV1.UpdatedApiKey> {
  const scopes = request.scopes ? [...new Set(request.scopes.values)] : undefined;
  if (scopes && scopes.length === 0) {
    throw BusinessError.validation({ scopes: ['must not be empty'] }, { httpStatus: 400 });
  }
  checkKeyInput({
    name: request.name,
    scopes,
    rateLimit: request.rate_limit,
    agentIds: request.agent_ids?.ids,
    workflowIds: request.workflow_ids?.ids,
  });
  const owner = ownerScope(caller);
  const found = await withRevisionDropped(deps, caller, request.id, () =>
    withTransaction(deps.pool, async (tx) => {
      const changed = await updateKey(tx, request.id, owner, {
        name: request.name?.trim(),
        scopes,
        rateLimit: request.rate_limit,
        isActive: request.is_active,
      });
      if (!changed) return false;
      await replaceBindings(tx, request.id, request.agent_ids?.ids, request.workflow_ids?.ids);
      return true;
    }),
  );
  if (!found) throw new BusinessError(ErrorCode.NOT_FOUND);
  const row = (await findKey(deps.pool, request.id, null))!;
  return { id: row.id, name: row.name, is_active: row.is_active, updated_at: row.updated_at.toISOString() };
}

export async function setApiKeyActive(
  deps: ApiKeysDependencies,
  caller: Principal,
  id: string,
  isActive: boolean,
): Promise<apikeysV1.ApiKeyRecord> {
  const found = await withRevisionDropped(deps, caller, id, () =>
    updateKey(deps.pool, id, ownerScope(caller), { isActive }),
  );
  if (!found) throw new BusinessError(ErrorCode.NOT_FOUND);
  return toOwnFields((await findKey(deps.pool, id, null))!);
}

/** Delete = revoke: irreversible, the key fails on the next request. */
export async function deleteApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  id: string,
): Promise<apikeysV1.DeleteApiKeyResponse> {
  const found = await withRevisionDropped(deps, caller, id, () =>
    deleteKey(deps.pool, id, ownerScope(caller)),
  );
  if (!found) throw new BusinessError(ErrorCode.NOT_FOUND);
  deps.logger.info({ api_key_id: id }, 'api key deleted');
  return { id };
}
