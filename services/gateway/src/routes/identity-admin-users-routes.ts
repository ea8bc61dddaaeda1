import { APPROVAL_STATUSES } from '@platform/contracts';
import type * as adminUsersV1 from '@platform/contracts/platform/identity/v1/admin_users';
import { ApprovalStatus } from '@platform/contracts/platform/identity/v1/enums';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { paged, requestOrigin } from './identity-route-schemas.js';
import { defineRoute, type RouteContext } from './route-definition.js';
import { pagingQuery } from './validation.js';

const READ = 'admin:users:read';
const UPDATE = 'admin:users:update';

const adminUserSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  email_verified: z.boolean(),
  approval_status: z.enum(APPROVAL_STATUSES.names),
  totp_enabled: z.boolean(),
  force_password_change: z.boolean(),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Empty timestamps (never signed in) become null; the approval status goes by its name. */
export function toHttpAdminUser(user: adminUsersV1.AdminUserRecord) {
  return {
    ...user,
    approval_status: APPROVAL_STATUSES.fromProto(user.approval_status),
    last_login_at: user.last_login_at || null,
  };
}

/** `true`/`false`/`1`/`0`; absent means "either" (the shared queryBool always has a default). */
const optionalQueryBool = z.preprocess(
  (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
  z.boolean({ message: 'must be true or false' }).optional(),
);

const listQuery = z.object({
  approval_status: z.enum(APPROVAL_STATUSES.names).optional(),
  is_active: optionalQueryBool,
  search: z.string().trim().max(100).optional(),
  ...pagingQuery,
});
type ListQuery = z.infer<typeof listQuery>;
const userParams = z.object({ id: z.uuid() });
type UserParams = z.infer<typeof userParams>;
const rolesBody = z.object({ role_ids: z.array(z.uuid()).max(50) });
type RolesBody = z.infer<typeof rolesBody>;

type Action = 'approveUser' | 'activateUser' | 'deactivateUser' | 'forcePasswordChange';

function userAction(path: string, summary: string, rpc: Action) {
  return defineRoute<ServiceClients, UserParams, undefined, undefined, adminUsersV1.AdminUserRecord>({
    method: 'post',
    path: `/admin/users/:id/${path}`,
    errors: [
      ErrorCode.USER_NOT_FOUND,
      ErrorCode.USER_ALREADY_ACTIVE,
      ErrorCode.USER_ALREADY_INACTIVE,
      ErrorCode.CANNOT_DEACTIVATE_SUPERUSER,
      ErrorCode.INSUFFICIENT_PRIVILEGES,
    ],
    summary,
    tags: ['admin-users'],
    auth: 'user',
    permission: UPDATE,
    params: userParams,
    response: adminUserSchema,
    invoke: ({ params }, { clients, principal, ip, userAgent }: RouteContext<ServiceClients>) =>
      clients.adminUsers.call(
        rpc,
        { user_id: params.id, origin: requestOrigin({ ip, userAgent }) },
        { principal },
      ),
    present: toHttpAdminUser,
  });
}

export const identityAdminUsersRoutes = [
  defineRoute<ServiceClients, undefined, ListQuery, undefined, adminUsersV1.ListUsersResponse>({
    method: 'get',
    path: '/admin/users',
    summary: 'List users (filters: approval_status, is_active, search)',
    tags: ['admin-users'],
    auth: 'user',
    permission: READ,
    query: listQuery,
    response: paged(adminUserSchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.adminUsers.call(
        'listUsers',
        {
          approval_status: query.approval_status
            ? APPROVAL_STATUSES.toProto(query.approval_status)
            : ApprovalStatus.APPROVAL_STATUS_UNSPECIFIED,
          is_active: query.is_active,
          search: query.search,
          page: query.page,
          page_size: query.page_size,
        },
        { principal },
      ),
    present: (list) => ({ ...list, items: list.items.map(toHttpAdminUser) }),
  }),
  userAction('approve', 'Approve a pending account', 'approveUser'),
  userAction('activate', 'Activate an account (5212 when already active)', 'activateUser'),
  userAction('deactivate', 'Deactivate an account (5213, 5214)', 'deactivateUser'),
  userAction('force-password-change', 'Require a password change at next login', 'forcePasswordChange'),
  defineRoute<ServiceClients, UserParams, undefined, RolesBody, adminUsersV1.AdminUserRecord>({
    method: 'put',
    path: '/admin/users/:id/roles',
    errors: [ErrorCode.USER_NOT_FOUND, ErrorCode.ROLE_NOT_FOUND, ErrorCode.INSUFFICIENT_PRIVILEGES],
    summary: "Replace a user's roles",
    tags: ['admin-users'],
    auth: 'user',
    permission: UPDATE,
    params: userParams,
    body: rolesBody,
    response: adminUserSchema,
    invoke: ({ params, body }, { clients, principal, ip, userAgent }) =>
      clients.adminUsers.call(
        'setUserRoles',
        { user_id: params.id, role_ids: body.role_ids, origin: requestOrigin({ ip, userAgent }) },
        { principal },
      ),
    present: toHttpAdminUser,
  }),
];
