import { BusinessError, ErrorCode } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import {
  findAccountById,
  findPermissionsAndTeams,
  type TeamMembershipRow,
} from '../../data/auth-account-repository.js';
import { requirePrincipal } from '@platform/rbac';
import { toAccountUser, type AccountView } from './account-view.js';
import type { AuthDeps } from './auth-context.js';

export interface CurrentUserView {
  account: AccountView;
  is_superuser: boolean;
  permissions: string[];
  teams: TeamMembershipRow[];
  totp_enabled: boolean;
  force_password_change: boolean;
  last_login_at: string;
  password_changed_at: string;
}

/** `GET /users/me`: the caller's account with its permissions and teams (ARCHITECTURE, pinned). */
export async function getCurrentUser(
  deps: Pick<AuthDeps, 'pool'>,
  principal: Principal | undefined,
): Promise<CurrentUserView> {
  const caller = requirePrincipal(principal);
  const account = await findAccountById(deps.pool, caller.user_id);
  if (!account) throw new BusinessError(ErrorCode.INVALID_TOKEN, { httpStatus: 401 });
  const { permissions, teams } = await findPermissionsAndTeams(deps.pool, account.id);
  return {
    account: toAccountUser(account),
    is_superuser: account.is_superuser,
    permissions,
    teams,
    totp_enabled: account.totp_enabled,
    force_password_change: account.force_password_change,
    last_login_at: account.last_login_at?.toISOString() ?? '',
    password_changed_at: account.password_changed_at?.toISOString() ?? '',
  };
}
