import type * as rolesV1 from '@platform/contracts/platform/identity/v1/roles';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';
import { pagingQuery } from './validation.js';

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
const roleName = z.string().trim().min(1).max(100);
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
const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
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
const updateBody = z
  .object({
    name: roleName.optional(),
    description: description.optional(),
    permissions: permissionList.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one of name, description, permissions',
  });
type UpdateBody = z.infer<typeof updateBody>;

export const identityRolesRoutes = [
  defineRoute<ServiceClients, undefined, Paging, undefined, rolesV1.ListPermissionsResponse>({
    method: 'get',
    path: '/admin/permissions',
    summary: 'List permission codes',
    tags: ['admin-roles'],
    auth: 'user',
    permission: READ,
    query: pagingSchema,
    response: paged(permissionSchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.roles.call('listPermissions', { page: query.page, page_size: query.page_size }, { principal }),
  }),
  defineRoute<ServiceClients, undefined, Paging, undefined, rolesV1.ListRolesResponse>({
    method: 'get',
    path: '/admin/roles',
    summary: 'List roles with their permissions',
    tags: ['admin-roles'],
    auth: 'user',
    permission: READ,
    query: pagingSchema,
    response: paged(roleSchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.roles.call('listRoles', { page: query.page, page_size: query.page_size }, { principal }),
  }),
  defineRoute<ServiceClients, undefined, undefined, CreateBody, rolesV1.RoleRecord>({
    method: 'post',
    path: '/admin/roles',
    summary: 'Create a role',
    tags: ['admin-roles'],
    auth: 'user',
    permission: MANAGE,
    body: createBody,
    response: roleSchema,
    invoke: ({ body }, { clients, principal, ip, userAgent }) =>
      clients.roles.call(
        'createRole',
        {
          name: body.name,
          description: body.description ?? '',
          permissions: body.permissions,
          ip,
          user_agent: userAgent,
        },
        { principal },
      ),
  }),
  defineRoute<ServiceClients, RoleParams, undefined, UpdateBody, rolesV1.RoleRecord>({
    method: 'put',
    path: '/admin/roles/:id',
    summary: 'Update a role (name, description, permission set)',
    tags: ['admin-roles'],
    auth: 'user',
    permission: MANAGE,
    params: roleParams,
    body: updateBody,
    response: roleSchema,
    invoke: ({ params, body }, { clients, principal, ip, userAgent }) =>
      clients.roles.call(
        'updateRole',
        {
          id: params.id,
          name: body.name,
          description: body.description,
          replace_permissions: body.permissions !== undefined,
          permissions: body.permissions ?? [],
          ip,
          user_agent: userAgent,
        },
        { principal },
      ),
  }),
  defineRoute<ServiceClients, RoleParams, undefined, undefined, rolesV1.DeleteRoleResponse>({
    method: 'delete',
    path: '/admin/roles/:id',
    summary: 'Delete a custom role that no user holds',
    tags: ['admin-roles'],
    auth: 'user',
    permission: MANAGE,
    params: roleParams,
    response: z.object({ id: z.uuid() }),
    invoke: ({ params }, { clients, principal, ip, userAgent }) =>
      clients.roles.call('deleteRole', { id: params.id, ip, user_agent: userAgent }, { principal }),
  }),
];
