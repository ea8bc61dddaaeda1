import type { RequestOrigin } from '@platform/grpc';
import type { SsoConnection } from '@platform/contracts/platform/identity/v1/sso';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import { deleteConnectionRow, listUserConnections, lockLoginMethods } from '../../data/sso-repository.js';
import type { SsoDeps } from './sso-context.js';

export async function listMyConnections(deps: SsoDeps, caller: Principal): Promise<SsoConnection[]> {
  const rows = await listUserConnections(deps.pool, caller.user_id);
  return rows.map((row) => ({
    id: row.id,
    provider_name: row.provider_name,
    provider_display_name: row.provider_display_name,
    email: row.email ?? '',
    created_at: row.created_at.toISOString(),
  }));
}

/**
 * Unlinks one of the caller's own connections. Another user's connection answers like a missing
 * one (4000), so ids reveal nothing. The last way to sign in — no password and no other
 * connection — is kept (1004 `sso_last_login_method`): set a password (reset) first.
 */
export async function deleteMyConnection(
  deps: SsoDeps,
  caller: Principal,
  connectionId: string,
  origin: RequestOrigin,
): Promise<{ id: string }> {
  const notFound = () => new BusinessError(ErrorCode.NOT_FOUND);
  if (!isUuid(connectionId)) throw notFound();
  await withTransaction(deps.pool, async (client) => {
    const methods = await lockLoginMethods(client, caller.user_id);
    if (!methods?.connectionIds.includes(connectionId)) throw notFound();
    if (!methods.hasPassword && methods.connectionIds.length === 1) {
      throw BusinessError.named('sso_last_login_method');
    }
    await deleteConnectionRow(client, connectionId);
    await writeAudit(client, {
      actorUserId: caller.user_id,
      action: 'sso.connection_removed',
      targetType: 'sso_connection',
      targetId: connectionId,
      ...origin,
    });
  });
  return { id: connectionId };
}
