import { withTransaction, type PoolClient } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findAdminUser, updateUserFlags, type AdminUserRow } from '../../data/admin-users-repository.js';
import { writeAudit } from '../../data/audit-repository.js';
import { notifyUser, publishDomainEvent } from '../../events/publish-events.js';
import type { IdentityDependencies } from '../../deps.js';
import { isUuid } from '../roles/role-rules.js';
import { toAdminUserRecord, userNotFound } from './admin-user-record.js';

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

/** Pending → approved. Approving an approved account is a no-op (idempotent for retries). */
export async function approveUser(deps: IdentityDependencies, action: AdminAction) {
  const { user, applied } = await changeUser(deps, action, async (client, current) => {
    if (current.approval_status === 'approved') return undefined;
    await updateUserFlags(client, current.id, { approvalStatus: 'approved' });
    return 'user.approve';
  });
  if (applied) await publishDomainEvent(deps, 'user.approved', user.id, { user_id: user.id });
  return toAdminUserRecord(user);
}

export async function activateUser(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    if (current.is_active) throw new BusinessError(ErrorCode.USER_ALREADY_ACTIVE);
    await updateUserFlags(client, current.id, { isActive: true });
    return 'user.activate';
  });
  await announce(deps, user, 'user.activated', 'Account activated', 'Your account has been activated.');
  return toAdminUserRecord(user);
}

/**
 * Superusers cannot be deactivated (5214). The gateway refuses the user's tokens (401/2004) once
 * its principal cache entry expires (PRINCIPAL_CACHE_TTL_MS, 5 s by default).
 */
export async function deactivateUser(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    if (current.is_superuser) throw new BusinessError(ErrorCode.CANNOT_DEACTIVATE_SUPERUSER);
    if (!current.is_active) throw new BusinessError(ErrorCode.USER_ALREADY_INACTIVE);
    await updateUserFlags(client, current.id, { isActive: false });
    return 'user.deactivate';
  });
  await announce(deps, user, 'user.deactivated', 'Account deactivated', 'Your account has been deactivated.');
  return toAdminUserRecord(user);
}

/** The next password login answers `force_password_change` with reason `force`. Idempotent. */
export async function forcePasswordChange(deps: IdentityDependencies, action: AdminAction) {
  const { user } = await changeUser(deps, action, async (client, current) => {
    await updateUserFlags(client, current.id, { forcePasswordChange: true });
    return 'user.force_password_change';
  });
  return toAdminUserRecord(user);
}

async function announce(
  deps: IdentityDependencies,
  user: AdminUserRow,
  type: string,
  title: string,
  content: string,
): Promise<void> {
  await notifyUser(deps, { type, userId: user.id, title, content, data: { user_id: user.id } });
  await publishDomainEvent(deps, type, user.id, { user_id: user.id });
}
