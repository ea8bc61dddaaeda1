import { APPROVAL_STATUSES } from '@platform/contracts';
import { readPaging } from '@platform/errors';
import * as adminUsersV1 from '@platform/contracts/platform/identity/v1/admin_users';
import { readOrigin, registration, type CallContext, type ForwardedOrigin } from '@platform/grpc';
import { listUsers } from '../data/admin-users-repository.js';
import {
  toAdminUserRecord,
  USERS_READ_PERMISSION,
  USERS_UPDATE_PERMISSION,
} from '../domain/admin-users/admin-user-record.js';
import {
  activateUser,
  approveUser,
  deactivateUser,
  forcePasswordChange,
  type AdminAction,
} from '../domain/admin-users/change-user-status.js';
import { setUserRoles } from '../domain/admin-users/set-user-roles.js';
import { requirePermission } from '@platform/rbac';
import type { IdentityDependencies } from '../deps.js';
import { withApprovalStatus } from './identity-messages.js';

export const ADMIN_USERS_SERVICE_NAME = 'platform.identity.v1.AdminUsersService';

function adminAction(
  request: { user_id: string; origin?: ForwardedOrigin | undefined },
  context: CallContext,
): AdminAction {
  return {
    actor: requirePermission(context.principal, USERS_UPDATE_PERMISSION),
    userId: request.user_id,
    ...readOrigin(request.origin, context),
  };
}

export function adminUsersGrpc(deps: IdentityDependencies) {
  return registration(ADMIN_USERS_SERVICE_NAME, adminUsersV1.AdminUsersServiceService, {
    listUsers: async (request, context) => {
      requirePermission(context.principal, USERS_READ_PERMISSION);
      const window = readPaging(request.page, request.page_size);
      const { rows, total } = await listUsers(
        deps.pool,
        {
          approvalStatus: APPROVAL_STATUSES.fromProto(request.approval_status),
          isActive: request.is_active,
          search: request.search,
        },
        window.limit,
        window.offset,
      );
      return {
        items: rows.map((row) => withApprovalStatus(toAdminUserRecord(row))),
        total,
        page: window.page,
        page_size: window.pageSize,
      };
    },
    approveUser: async (request, context) =>
      withApprovalStatus(await approveUser(deps, adminAction(request, context))),
    activateUser: async (request, context) =>
      withApprovalStatus(await activateUser(deps, adminAction(request, context))),
    deactivateUser: async (request, context) =>
      withApprovalStatus(await deactivateUser(deps, adminAction(request, context))),
    forcePasswordChange: async (request, context) =>
      withApprovalStatus(await forcePasswordChange(deps, adminAction(request, context))),
    setUserRoles: async (request, context) =>
      withApprovalStatus(await setUserRoles(deps, adminAction(request, context), request.role_ids)),
  });
}
