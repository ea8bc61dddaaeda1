import type * as rolesV1 from '@platform/contracts/platform/identity/v1/roles';
import type { RequestOf } from '@platform/grpc';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { paged, requestOrigin } from './identity-route-schemas.js';
import { defineRoute, type RouteContext } from './route-definition.js';
import { nonBlankText, pagingQuery } from './validation.js';
import { atLeastOneField } from './at-least-one-field.js';

/**
 * Roles and permissions. Reads need `admin:users:read` (whoever assigns roles must see them);
 * changes need `admin:roles:manage`.
 */
const READ = 'admin:users:read';
const MANAGE = 'admin:roles:manage';

const permissionCode = z
  .string()
  .min(1)
  .max(100)
  .regex(/^(\*|[a-z][a-z0-9_-]*(:[a-z0-9_*-]+)*)$/, 'must be a permission code');
const roleName = nonBlankText(100);
const description = z.string().max(500);
const permissionList = z.array(permissionCode).max(100);

const permissionSchema = z.object({ code: z.string(), description: z.string(), is_system: z.boolean() });
const roleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  is_system: z.boolean(),
  is_default: z.boolean(),
  permissions: z.array(z.string()),
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
const pagingSchema = z.object({ ...pagingQuery });
type Paging = z.infer<typeof pagingSchema>;
const roleParams = z.object({ id: z.uuid() });
type RoleParams = z.infer<typeof roleParams>;
const createBody = z.object({
  name: roleName,
  description: description.optional(),
  permissions: permissionList,
});
type CreateBody = z.infer<typeof createBody>;
const updateBody = atLeastOneField(
  z.object({
    name: roleName.optional(),
    description: description.optional(),
    permissions: permissionList.optional(),
  }),
  'give at least one of name, description, permissions',
);
type UpdateBody = z.infer<typeof updateBody>;

const base = { tags: ['admin-roles'], auth: 'user' as const };
const manage = { ...base, permission: MANAGE };

/** A paged read (`admin:users:read`). */
function listRoute(path: string, summary: string, item: z.ZodType, rpc: 'listPermissions' | 'listRoles') {
  return defineRoute<ServiceClients, undefined, Paging, undefined, unknown>({
    ...base,
    method: 'get',
    path,
    summary,
    permission: READ,
    query: pagingSchema,
    response: paged(item),
    invoke: ({ query }, { clients, principal }) =>
      clients.roles.call(rpc, { page: query.page, page_size: query.page_size }, { principal }),
  });
}

type RoleChangeRequest<K extends 'createRole' | 'updateRole' | 'deleteRole'> = RequestOf<
  (typeof rolesV1.RolesServiceService)[K]
>;

/** A role change, sent as the caller with the request's origin for the audit. */
function changeRole<K extends 'createRole' | 'updateRole' | 'deleteRole'>(
  context: RouteContext<ServiceClients>,
  rpc: K,
  request: Omit<RoleChangeRequest<K>, 'origin'>,
) {
  const withOrigin = { ...request, origin: requestOrigin(context) } as RoleChangeRequest<K>;
  return context.clients.roles.call(rpc, withOrigin, { principal: context.principal });
}

export const identityRolesRoutes = [
  listRoute('/admin/permissions', 'List permission codes', permissionSchema, 'listPermissions'),
  listRoute('/admin/roles', 'List roles with their permissions', roleSchema, 'listRoles'),
  defineRoute<ServiceClients, undefined, undefined, CreateBody, rolesV1.RoleRecord>({
    ...manage,
    method: 'post',
    path: '/admin/roles',
    errors: [ErrorCode.ROLE_NAME_EXISTS, ErrorCode.PERMISSION_NOT_FOUND, ErrorCode.INSUFFICIENT_PRIVILEGES],
    summary: 'Create a role',
    body: createBody,
    response: roleSchema,
    invoke: ({ body }, context) =>
      changeRole(context, 'createRole', {
        name: body.name,
        description: body.description,
        permissions: body.permissions,
      }),
  }),
  defineRoute<ServiceClients, RoleParams, undefined, UpdateBody, rolesV1.RoleRecord>({
    ...manage,
    method: 'put',
    path: '/admin/roles/:id',
    errors: [
      ErrorCode.ROLE_NOT_FOUND,
      ErrorCode.ROLE_NAME_EXISTS,
      ErrorCode.PERMISSION_NOT_FOUND,
      ErrorCode.CANNOT_MODIFY_SYSTEM_ROLE,
      ErrorCode.INSUFFICIENT_PRIVILEGES,
    ],
    summary: 'Update a role (name, description, permission set)',
    params: roleParams,
    body: updateBody,
    response: roleSchema,
    invoke: ({ params, body }, context) =>
      changeRole(context, 'updateRole', {
        id: params.id,
        name: body.name,
        description: body.description,
        permissions: body.permissions && { codes: body.permissions },
      }),
  }),
  defineRoute<ServiceClients, RoleParams, undefined, undefined, rolesV1.DeleteRoleResponse>({
    ...manage,
    method: 'delete',
    path: '/admin/roles/:id',
    errors: [ErrorCode.ROLE_NOT_FOUND, ErrorCode.ROLE_IN_USE, ErrorCode.CANNOT_DELETE_SYSTEM_ROLE],
    summary: 'Delete a custom role that no user holds',
    params: roleParams,
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, context) => changeRole(context, 'deleteRole', { id: params.id }),
  }),
];
