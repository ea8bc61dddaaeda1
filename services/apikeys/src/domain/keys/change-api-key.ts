import type { ApiKeyScope, apikeysV1 } from '@platform/contracts';
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
import type { RequestOrigin } from '@platform/grpc';
import { writeKeyAudit } from '../../data/key-audit-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
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

/** An update request with its scopes by name (the handler translated the enum values). */
export type UpdateKeyRequest = Omit<apikeysV1.UpdateApiKeyRequest, 'scopes'> & { scopes?: ApiKeyScope[] };

/** What an update supplied, for the audit trail (all of it is non-secret metadata). */
function changedFields(request: UpdateKeyRequest, scopes: string[] | undefined) {
  const details: Record<string, unknown> = {};
  if (request.name !== undefined) details.name = request.name.trim();
  if (scopes) details.scopes = scopes;
  if (request.rate_limit !== undefined) details.rate_limit = request.rate_limit;
  if (request.is_active !== undefined) details.is_active = request.is_active;
  if (request.agent_ids) details.agent_ids = request.agent_ids.ids;
  if (request.workflow_ids) details.workflow_ids = request.workflow_ids.ids;
  return details;
}

/**
 * Partial update: only supplied fields change (`[]` clears a binding list = no restriction). The
 * shape (non-empty scopes, name length, binding counts) is the gateway schema's, the RPC's only caller.
 */
export async function updateApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: UpdateKeyRequest,
  origin: RequestOrigin,
): Promise<apikeysV1.UpdatedApiKey> {
  const { scopes } = request;
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
      await writeKeyAudit(tx, {
        keyId: request.id,
        action: 'api_key.update',
        actorUserId: caller.user_id,
        origin,
        details: changedFields(request, scopes),
      });
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
  origin: RequestOrigin,
): Promise<apikeysV1.ApiKeyRecord> {
  const found = await withRevisionDropped(deps, caller, id, () =>
    withTransaction(deps.pool, async (tx) => {
      if (!(await updateKey(tx, id, ownerScope(caller), { isActive }))) return false;
      await writeKeyAudit(tx, {
        keyId: id,
        action: isActive ? 'api_key.activate' : 'api_key.deactivate',
        actorUserId: caller.user_id,
        origin,
        details: {},
      });
      return true;
    }),
  );
  if (!found) throw new BusinessError(ErrorCode.NOT_FOUND);
  return toOwnFields((await findKey(deps.pool, id, null))!);
}

/** Delete = revoke: irreversible, the key fails on the next request. */
export async function deleteApiKey(
  deps: ApiKeysDependencies,
  caller: Principal,
  id: string,
  origin: RequestOrigin,
): Promise<apikeysV1.DeleteApiKeyResponse> {
  const found = await withRevisionDropped(deps, caller, id, () =>
    withTransaction(deps.pool, async (tx) => {
      // Audited first (the row copies the key's prefix and owner), then deleted; a delete that
      // finds nothing rolls the audit row back with it.
      await writeKeyAudit(tx, {
        keyId: id,
        action: 'api_key.delete',
        actorUserId: caller.user_id,
        origin,
        details: {},
      });
      if (!(await deleteKey(tx, id, ownerScope(caller)))) throw new BusinessError(ErrorCode.NOT_FOUND);
      return true;
    }),
  );
  if (!found) throw new BusinessError(ErrorCode.NOT_FOUND);
  deps.logger.info({ api_key_id: id }, 'api key deleted');
  return { id };
}
