import { createServiceClient, type CallCredentials, type ServiceClient } from '@platform/grpc';
import { DirectoryServiceService } from '@platform/contracts/platform/identity/v1/directory';
import type { UserContact } from '../domain/identity-port.js';

export type { UserContact } from '../domain/identity-port.js';

export interface TeamMembership {
  teamExists: boolean;
  /** `OWNER`, `ADMIN`, `MEMBER`, or '' when not a member. */
  role: string;
}

/** Users and teams, from identity (their owner); notifications never reads identity's database. */
export interface Directory {
  /** Known users among `ids` (unknown ones are left out), fetched 1000 at a time. */
  userContacts(ids: readonly string[]): Promise<Map<string, UserContact>>;
  teamMembership(teamId: string, userId: string): Promise<TeamMembership>;
  /** Every active user's id, page by page. */
  activeUserIds(): AsyncGenerator<string[]>;
  close(): void;
}

const BATCH = 1000;

/** `credentials`: notifications' service token for identity (DirectoryService is internal-only). */
export function identityAccess(address: string, credentials: CallCredentials): Directory {
  const client: ServiceClient<typeof DirectoryServiceService> = createServiceClient(
    DirectoryServiceService,
    'platform.identity.v1.DirectoryService',
    address,
    { defaultTimeoutMs: 10_000, credentials },
  );
  return {
    async userContacts(ids) {
      const found = new Map<string, UserContact>();
      const unique = [...new Set(ids)];
      for (let start = 0; start < unique.length; start += BATCH) {
        const { users } = await client.call('getUserContacts', { ids: unique.slice(start, start + BATCH) });
        for (const user of users) found.set(user.id, user);
      }
      return found;
    },
    async teamMembership(teamId, userId) {
      const record = await client.call('getTeamMembership', { team_id: teamId, user_id: userId });
      return { teamExists: record.team_exists, role: record.role };
    },
    async *activeUserIds() {
      let cursor = '';
      do {
        const page = await client.call('listActiveUserIds', { cursor, limit: BATCH });
        if (page.user_ids.length > 0) yield page.user_ids;
        cursor = page.next_cursor;
      } while (cursor);
    },
    close: () => client.close(),
  };
}
