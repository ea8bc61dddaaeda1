import { identityDirectoryClient, memberRoleOf, type CallCredentials } from '@platform/grpc';

/** Team facts from identity (the owner of teams), for workflow ownership checks. */
export interface TeamDirectory {
  /** The user's role in the team (`OWNER`, `ADMIN`, `MEMBER`), or null when not a member. */
  roleOf(teamId: string, userId: string): Promise<string | null>;
  teamExists(teamId: string): Promise<boolean>;
  /** The team a user's team-less workflows bill model use to (null when in no team). */
  defaultTeamOf(userId: string): Promise<string | null>;
  close(): void;
}

/**
 * `credentials`: workflows' service token for identity (DirectoryService is internal-only). Not
 * cached: a demoted team admin must lose change rights on the very next request.
 */
export function identityTeamDirectory(address: string, credentials: CallCredentials): TeamDirectory {
  const client = identityDirectoryClient(address, credentials);
  return {
    async roleOf(teamId, userId) {
      const record = await client.call('getTeamMembership', { team_id: teamId, user_id: userId });
      return memberRoleOf(record);
    },
    async teamExists(teamId) {
      const record = await client.call('getTeamMembership', { team_id: teamId });
      return record.team_exists;
    },
    async defaultTeamOf(userId) {
      const team = await client.call('getDefaultTeam', { user_id: userId });
      return team.team_id || null;
    },
    close: () => client.close(),
  };
}
