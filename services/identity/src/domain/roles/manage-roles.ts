import { withTransaction, type Pool } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { writeAudit } from '../../data/audit-repository.js';
import {
  deleteRoleRow,
  findRole,
  findRoleHolders,
  insertRole,
  isUniqueViolation,
  replaceRolePermissions,
  updateRoleFields,
} from '../../data/roles-repository.js';
import { checkPermissionCodes, roleNotFound, toRoleRecord } from './role-rules.js';

export interface AuditContext {
  ip: string;
  userAgent: string;
  requestId: string;
}

function roleNameTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw new BusinessError(ErrorCode.ROLE_NAME_EXISTS);
  throw err;
}

export async function createRole(
  pool: Pool,
  actor: Principal,
  /** No description: an empty one. */
  input: { name: string; description?: string; permissions: string[] },
  audit: AuditContext,
) {
  const id = await withTransaction(pool, async (client) => {
    await checkPermissionCodes(client, actor, input.permissions);
    const roleId = await insertRole(client, input.name, input.description ?? '').catch(roleNameTaken);
    await replaceRolePermissions(client, roleId, input.permissions);
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'role.create',
      targetType: 'role',
      targetId: roleId,
      ...audit,
      details: { name: input.name, permissions: input.permissions },
    });
    return roleId;
  });
  return toRoleRecord((await findRole(pool, id))!);
}

/** Told, after the commit, which users' permissions a role change touched. */
export type PrincipalsChanged = (userIds: string[]) => Promise<void>;

/**
 * System roles are fixed (5204): their permissions are what the platform's own rules assume. A
 * permission change reaches every holder at once through `principalsChanged` (gateway revision).
 */
export async function updateRole(
  pool: Pool,
  actor: Principal,
  input: { id: string; name?: string; description?: string; permissions?: string[] },
  audit: AuditContext,
  principalsChanged?: PrincipalsChanged,
) {
  if (!isUuid(input.id)) throw roleNotFound();
  const holders = await withTransaction(pool, async (client) => {
    const role = await findRole(client, input.id, true);
    if (!role) throw roleNotFound();
    if (role.is_system) throw new BusinessError(ErrorCode.CANNOT_MODIFY_SYSTEM_ROLE);
    if (input.permissions) await checkPermissionCodes(client, actor, input.permissions);
    // Holders of a `*` role can only be re-scoped by someone who holds `*` too.
    if (role.permissions.includes('*') && input.permissions && !input.permissions.includes('*')) {
      await checkPermissionCodes(client, actor, ['*']);
    }
    await updateRoleFields(client, input.id, input).catch(roleNameTaken);
    if (input.permissions) await replaceRolePermissions(client, input.id, input.permissions);
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'role.update',
      targetType: 'role',
      targetId: input.id,
      ...audit,
      details: { name: input.name, permissions: input.permissions },
    });
    return input.permissions ? findRoleHolders(client, input.id) : [];
  });
  if (holders.length > 0) await principalsChanged?.(holders);
  return toRoleRecord((await findRole(pool, input.id))!);
}

/** System roles cannot be deleted (5200); a role still assigned to users neither (5211). */
export async function deleteRole(pool: Pool, actor: Principal, id: string, audit: AuditContext) {
  if (!isUuid(id)) throw roleNotFound();
  await withTransaction(pool, async (client) => {
    const role = await findRole(client, id, true);
    if (!role) throw roleNotFound();
    if (role.is_system) throw new BusinessError(ErrorCode.CANNOT_DELETE_SYSTEM_ROLE);
    if (role.user_count > 0) {
      throw new BusinessError(ErrorCode.ROLE_IN_USE, { data: { user_count: role.user_count } });
    }
    // A concurrent assignment trips the user_roles foreign key (RESTRICT): still "in use".
    await deleteRoleRow(client, id).catch((err: unknown) => {
      if ((err as { code?: string }).code === '23503') throw new BusinessError(ErrorCode.ROLE_IN_USE);
      throw err;
    });
    await writeAudit(client, {
      actorUserId: actor.user_id,
      action: 'role.delete',
      targetType: 'role',
      targetId: id,
      ...audit,
      details: { name: role.name },
    });
  });
  return { id };
}
