import { withTransaction, type PoolClient } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findAdminUser, updateUserFlags, type AdminUserRow } from '../../data/admin-users-repository.js';
import { writeAudit } from '../../data/audit-repository.js';
import { notifyUser, publishDomainEvent } from '../identity-events.js';
import type { IdentityDependencies } from '../../deps.js';
import { toAdminUserRecord, userNotFound } from './admin-user-record.js';
import { endUserSessions, invalidatePrincipals } from './principal-changes.js';

export interface AdminAction {
  actor: Principal;
  userId: string;
  ip: string;
  userAgent: string;
  requestId: string;
}

/**
 * One admin change to a user, in a transaction with its audit row: `change` checks the rules on
 * the locked row and applies the update, returning the audit action or `undefined` for a no-op.
 */
async function changeUser(
  deps: IdentityDependencies,
  action: AdminAction,
  change: (client: PoolClient, user: AdminUserRow) => Promise<string | undefined>,
) {
  if (!isUuid(action.userId)) throw userNotFound();
  const applied = await withTransaction(deps.pool, async (client) => {
    const user = await findAdminUser(client, action.userId, true);
    if (!user) throw userNotFound();
    const auditAction = await change(client, user);
    if (auditAction) {
      await writeAudit(client, {
        actorUserId: action.actor.user_id,
        action: auditAction,
        targetType: 'user',
        targetId: user.id,
        ip: action.ip,
        userAgent: action.userAgent,
        requestId: action.requestId,
      });
    }
    return auditAction;
  });
  const user = (await findAdminUser(deps.pool, action.userId))!;
  return { user, applied };
}

/**
 * Pending → approved AND active: approval is what lets the account sign in, so it also activates
 * it. Approving an approved account is a no-op (idempotent for retries).
 */
export async function approveUser(deps: IdentityDependencies, action: AdminAction) {
  const { user, applied } = await changeUser(deps, action, async (client, current) => {
    if (current.approval_status === 'approved') return undefined;
    await updateUserFlags(client, current.id, { approvalStatus: 'approved', isActive: true });
    await publishDomainEvent(client, 'user.approved', current.id, { user_id: current.id });
    return 'user.approve';
  });
  if (applied) await invalidatePrincipals(deps, [user.id]);
  return toAdminUserRecord(user);
}

export async function activateUser(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    if (current.is_active) throw new BusinessError(ErrorCode.USER_ALREADY_ACTIVE);
    await updateUserFlags(client, current.id, { isActive: true });
    await announce(
      client,
      current,
      'user.activated',
      'Account activated',
      'Your account has been activated.',
    );
    return 'user.activate';
  });
  await invalidatePrincipals(deps, [user.id]);
  return toAdminUserRecord(user);
}

/**
 * Superusers cannot be deactivated (5214). Every token of the user ends, and every gateway refuses
 * the user from its very next request (principal revision; 401/2004 until the tokens' end applies,
 * 401/2001 after).
 */
export async function deactivateUser(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    if (current.is_superuser) throw new BusinessError(ErrorCode.CANNOT_DEACTIVATE_SUPERUSER);
    if (!current.is_active) throw new BusinessError(ErrorCode.USER_ALREADY_INACTIVE);
    await updateUserFlags(client, current.id, { isActive: false });
    await announce(
      client,
      current,
      'user.deactivated',
      'Account deactivated',
      'Your account has been deactivated.',
    );
    return 'user.deactivate';
  });
  await invalidatePrincipals(deps, [user.id]);
  await endUserSessions(deps, user.id);
  return toAdminUserRecord(user);
}

/**
 * The next password login answers `force_password_change` with reason `force`, and every earlier
 * token of the user ends at once (the user must sign in again and comply). Idempotent.
 */
export async function forcePasswordChange(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    await updateUserFlags(client, current.id, { forcePasswordChange: true });
    return 'user.force_password_change';
  });
  await endUserSessions(deps, user.id);
  return toAdminUserRecord(user);
}

/** In the change's transaction: the events commit or roll back with it. */
async function announce(
  tx: PoolClient,
  user: AdminUserRow,
  type: string,
  title: string,
  content: string,
): Promise<void> {
  await notifyUser(tx, { type, userId: user.id, title, content, data: { user_id: user.id } });
  await publishDomainEvent(tx, type, user.id, { user_id: user.id });
}
