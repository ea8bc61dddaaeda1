import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { hasTeamRole, isGlobalAdmin } from '@platform/rbac';
import type { NotificationsDependencies } from '../deps.js';

type Deps = Pick<NotificationsDependencies, 'directory'>;

/**
 * The team exists (else 404 / 4004) and the caller is its OWNER or ADMIN (else 403 / 3003);
 * global admins manage every team, but an unknown team is still 4004.
 */
export async function requireTeamAdmin(deps: Deps, caller: Principal, teamId: string): Promise<void> {
  const membership = await deps.directory.teamMembership(teamId, caller.user_id);
  if (!membership.teamExists) throw BusinessError.named('team_not_found');
  if (isGlobalAdmin(caller)) return;
  if (!hasTeamRole(membership.role, 'ADMIN')) throw BusinessError.named('team_admin_required');
}
