import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import { findAdminUser, replaceUserRoles, userHoldsEverything } from '../../data/admin-users-repository.js';
import { writeAudit } from '../../data/audit-repository.js';
import { findRolesByIds } from '../../data/roles-repository.js';
import { publishDomainEvent } from '../identity-events.js';
import type { IdentityDependencies } from '../../deps.js';
import { holdsEverything } from '@platform/rbac';
import { toAdminUserRecord, userNotFound } from './admin-user-record.js';
import type { AdminAction } from './change-user-status.js';
import { invalidatePrincipals } from './principal-changes.js';

/**
 * Replaces a user's roles. Unknown role ids fail with 4002 (naming them). Escalation guards (3001):
 * only a caller holding `*` (or a superuser) may change a superuser's roles, grant a role with `*`,
 * or take one away. Audited with the before and after role ids.
 */
export async function setUserRoles(deps: IdentityDependencies, action: AdminAction, roleIds: string[]) {
  if (!isUuid(action.userId)) throw userNotFound();
  const wanted = [...new Set(roleIds)];
  await withTransaction(deps.pool, async (client) => {
    const user = await findAdminUser(client, action.userId, true);
    if (!user) throw userNotFound();
    const found = await findRolesByIds(client, wanted.filter(isUuid));
    const unknown = wanted.filter((id) => !found.some((role) => role.id === id));
    if (unknown.length > 0) {
      throw new BusinessError(ErrorCode.ROLE_NOT_FOUND, { data: { unknown_role_ids: unknown } });
    }
    const grantsEverything = found.some((role) => role.grants_all);
    const touchesEverything = grantsEverything || (await userHoldsEverything(client, user.id));
    if ((user.is_superuser || touchesEverything) && !holdsEverything(action.actor)) {
      throw BusinessError.named('insufficient_privileges');
    }
    await replaceUserRoles(client, user.id, wanted);
    await writeAudit(client, {
      actorUserId: action.actor.user_id,
      action: 'user.roles_changed',
      targetType: 'user',
      targetId: user.id,
      ip: action.ip,
      userAgent: action.userAgent,
      requestId: action.requestId,
      details: { before: user.roles.map((role) => role.id), after: wanted },
    });
    await publishDomainEvent(client, 'user.roles_changed', user.id, {
      user_id: user.id,
      before: user.roles.map((role) => role.id),
      after: wanted,
    });
  });
  await invalidatePrincipals(deps, [action.userId]);
  return toAdminUserRecord((await findAdminUser(deps.pool, action.userId))!);
}
