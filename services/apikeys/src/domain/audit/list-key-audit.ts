import { API_KEY_AUDIT_ACTIONS, type apikeysV1 } from '@platform/contracts';
import { ApiKeyAuditAction } from '@platform/contracts/platform/apikeys/v1/apikeys';
import { BusinessError, ErrorCode, isUuid, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { listKeyAudit } from '../../data/key-audit-repository.js';
import type { ApiKeysDependencies } from '../../deps.js';
import { isGlobalAdmin } from '@platform/rbac';

function uuidFilter(value: string | undefined, field: string): string | undefined {
  if (!value) return undefined;
  if (!isUuid(value)) throw BusinessError.validation({ [field]: ['must be a UUID'] }, { httpStatus: 400 });
  return value;
}

/** The key audit trail, newest first: global admins only (3001 otherwise), as the gateway checks. */
export async function listApiKeyAudit(
  deps: ApiKeysDependencies,
  caller: Principal,
  request: apikeysV1.ListApiKeyAuditRequest,
): Promise<apikeysV1.ListApiKeyAuditResponse> {
  if (!isGlobalAdmin(caller)) throw new BusinessError(ErrorCode.PERMISSION_DENIED);
  const { page, pageSize, limit, offset } = readPaging(request.page, request.page_size);
  const { rows, total } = await listKeyAudit(
    deps.pool,
    {
      keyId: uuidFilter(request.key_id, 'key_id'),
      actorUserId: uuidFilter(request.actor_user_id, 'actor_user_id'),
      keyOwnerId: uuidFilter(request.key_owner_id, 'key_owner_id'),
    },
    limit,
    offset,
  );
  return {
    items: rows.map((row) => ({
      ...row,
      action: API_KEY_AUDIT_ACTIONS.has(row.action)
        ? API_KEY_AUDIT_ACTIONS.toProto(row.action)
        : ApiKeyAuditAction.API_KEY_AUDIT_ACTION_UNSPECIFIED,
      ip: row.ip ?? '',
      user_agent: row.user_agent ?? '',
      request_id: row.request_id ?? '',
      created_at: row.created_at.toISOString(),
    })),
    total,
    page,
    page_size: pageSize,
  };
}
