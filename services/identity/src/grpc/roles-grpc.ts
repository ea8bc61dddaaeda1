import { readPaging } from '@platform/errors';
import * as rolesV1 from '@platform/contracts/platform/identity/v1/roles';
import { readOrigin, registration } from '@platform/grpc';
import { listPermissions, listRoles } from '../data/roles-repository.js';
import { requirePermission } from '@platform/rbac';
import { createRole, deleteRole, updateRole } from '../domain/roles/manage-roles.js';
import { ROLE_MANAGE_PERMISSION, ROLE_READ_PERMISSION, toRoleRecord } from '../domain/roles/role-rules.js';
import { invalidatePrincipals } from '../domain/admin-users/principal-changes.js';
import type { IdentityDependencies } from '../deps.js';

export const ROLES_SERVICE_NAME = 'platform.identity.v1.RolesService';

export function rolesGrpc(deps: IdentityDependencies) {
  const { pool } = deps;
  return registration(ROLES_SERVICE_NAME, rolesV1.RolesServiceService, {
    listPermissions: async (request, context) => {
      requirePermission(context.principal, ROLE_READ_PERMISSION);
      const window = readPaging(request.page, request.page_size);
      const { rows, total } = await listPermissions(pool, window.limit, window.offset);
      return { items: rows, total, page: window.page, page_size: window.pageSize };
    },
    listRoles: async (request, context) => {
      requirePermission(context.principal, ROLE_READ_PERMISSION);
      const window = readPaging(request.page, request.page_size);
      const { rows, total } = await listRoles(pool, window.limit, window.offset);
      return { items: rows.map(toRoleRecord), total, page: window.page, page_size: window.pageSize };
    },
    createRole: async (request, context) => {
      const actor = requirePermission(context.principal, ROLE_MANAGE_PERMISSION);
      return createRole(
        pool,
        actor,
        { name: request.name, description: request.description, permissions: request.permissions },
        readOrigin(request.origin, context),
      );
    },
    updateRole: async (request, context) => {
      const actor = requirePermission(context.principal, ROLE_MANAGE_PERMISSION);
      return updateRole(
        pool,
        actor,
        {
          id: request.id,
          name: request.name,
          description: request.description,
          permissions: request.permissions?.codes,
        },
        readOrigin(request.origin, context),
        (userIds) => invalidatePrincipals(deps, userIds),
      );
    },
    deleteRole: async (request, context) => {
      const actor = requirePermission(context.principal, ROLE_MANAGE_PERMISSION);
      return deleteRole(pool, actor, request.id, readOrigin(request.origin, context));
    },
  });
}
