import { identityDirectoryClient, type CallCredentials } from '@platform/grpc';

export interface TeamInfo {
  id: string;
  name: string;
}

/** What the grants need to know about teams, from identity (the owner of teams). */
export interface TeamDirectory {
  /** The team, or undefined when identity does not know it. */
  findTeam(teamId: string): Promise<TeamInfo | undefined>;
  /** Ids of the team's members with one of `roles` (every page). */
  memberIds(teamId: string, roles: string[]): Promise<string[]>;
  close(): void;
}

const PAGE = 1000;

/** `credentials`: models' service token for identity (DirectoryService is internal-only). */
export function identityTeamDirectory(address: string, credentials: CallCredentials): TeamDirectory {
  const client = identityDirectoryClient(address, credentials);
  return {
    async findTeam(teamId) {
      const record = await client.call('getTeamMembership', { team_id: teamId, user_id: '' });
      return record.team_exists ? { id: teamId, name: record.team_name } : undefined;
    },
    async memberIds(teamId, roles) {
      const ids: string[] = [];
      let cursor = '';
      do {
        const page = await client.call('listTeamMemberIds', { team_id: teamId, roles, cursor, limit: PAGE });
        ids.push(...page.user_ids);
        cursor = page.next_cursor;
      } while (cursor);
      return ids;
    },
    close: () => client.close(),
  };
}
