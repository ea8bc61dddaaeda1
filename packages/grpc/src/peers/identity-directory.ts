import { TEAM_ROLE_SET, type TeamRoleName } from '@platform/contracts';
import * as directoryV1 from '@platform/contracts/platform/identity/v1/directory';
import { createServiceClient, type ServiceClient } from '../client.js';
import type { CallCredentials } from '../trust/outgoing-trust.js';

export type DirectoryClient = ServiceClient<typeof directoryV1.DirectoryServiceService>;

/**
 * The client of identity's internal-only `DirectoryService` (users, teams, memberships), built one
 * way for every service that asks identity who someone is. `credentials`: the caller's service
 * token for identity; each service keeps only the narrow adapter (port) its domain needs.
 */
export function identityDirectoryClient(
  address: string,
  credentials: CallCredentials,
  options: { timeoutMs?: number } = {},
): DirectoryClient {
  return createServiceClient(
    directoryV1.DirectoryServiceService,
    'platform.identity.v1.DirectoryService',
    address,
    { defaultTimeoutMs: options.timeoutMs ?? 5_000, credentials },
  );
}

/**
 * The role a `GetTeamMembership` answer gives the user, by its name (`OWNER`, `ADMIN`, `MEMBER`);
 * null when the user is not a member (the role is absent) or the team does not exist.
 */
export function memberRoleOf(record: directoryV1.TeamMembershipRecord): TeamRoleName | null {
  if (!record.team_exists || record.role === undefined) return null;
  return TEAM_ROLE_SET.fromProto(record.role) ?? null;
}

/** Role names as the `ListTeamMemberIds` filter carries them. */
export const teamRoleFilter = (roles: readonly TeamRoleName[]) =>
  roles.map((role) => TEAM_ROLE_SET.toProto(role));
