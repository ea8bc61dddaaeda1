import { identityDirectoryClient, teamRoleFilter, type CallCredentials } from '@platform/grpc';
import type { TeamDirectory } from '../domain/grants/team-directory-port.js';

export type { TeamDirectory, TeamInfo } from '../domain/grants/team-directory-port.js';

const PAGE = 1000;

/** `credentials`: models' service token for identity (DirectoryService is internal-only). */
export function identityTeamDirectory(address: string, credentials: CallCredentials): TeamDirectory {
  const client = identityDirectoryClient(address, credentials);
  return {
    async findTeam(teamId) {
      const record = await client.call('getTeamMembership', { team_id: teamId });
      return record.team_exists ? { id: teamId, name: record.team_name } : undefined;
    },
    async memberIds(teamId, roles) {
      const ids: string[] = [];
      let cursor = '';
      do {
        const page = await client.call('listTeamMemberIds', {
          team_id: teamId,
          roles: teamRoleFilter(roles),
          cursor,
          limit: PAGE,
        });
        ids.push(...page.user_ids);
        cursor = page.next_cursor;
      } while (cursor);
      return ids;
    },
    close: () => client.close(),
  };
}
