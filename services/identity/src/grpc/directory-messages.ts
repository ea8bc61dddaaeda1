import { APPROVAL_STATUSES, TEAM_ROLE_SET } from '@platform/contracts';
import type * as directoryV1 from '@platform/contracts/platform/identity/v1/directory';
import type { TeamRole } from '@platform/contracts/platform/identity/v1/enums';
import type * as identityV1 from '@platform/contracts/platform/identity/v1/identity';
import type { PrincipalRow } from '../domain/principals/get-principal.js';

/**
 * The internal lookups' translations (DirectoryService, GetPrincipal): team roles and the approval
 * status by name inside the service, by enum value on the wire.
 */

/**
 * The roles filter of ListTeamMemberIds by name. An unspecified or unknown value keeps a name the
 * use case refuses like any other bad role (1001 naming `roles`), as a caller sending `owner` was.
 */
export const requestedRoles = (roles: readonly TeamRole[]): string[] =>
  roles.map((role) => TEAM_ROLE_SET.fromProto(role) ?? `#${role}`);

/** A membership answer: no role (not a member, or no user asked about) is an absent field. */
export function membershipMessage(membership: {
  team_exists: boolean;
  team_name: string;
  role: string;
}): directoryV1.TeamMembershipRecord {
  const role = TEAM_ROLE_SET.has(membership.role) ? TEAM_ROLE_SET.toProto(membership.role) : undefined;
  return { team_exists: membership.team_exists, team_name: membership.team_name, role };
}

/** The gateway's principal record; an unknown user is `found: false` with every field empty. */
export function principalMessage(row: PrincipalRow | undefined): identityV1.PrincipalRecord {
  if (!row) {
    return {
      found: false,
      user_id: '',
      username: '',
      is_superuser: false,
      permissions: [],
      team_ids: [],
      is_active: false,
      approval_status: 0,
    };
  }
  return { found: true, ...row, approval_status: APPROVAL_STATUSES.toProto(row.approval_status) };
}
