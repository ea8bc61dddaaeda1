import { identityDirectoryClient, memberRoleOf, type CallCredentials } from '@platform/grpc';
import type { Directory, RecipientDirectory, UserContact } from '../domain/identity-port.js';

const BATCH = 1000;

/** The in-app side's view of identity: contacts by id, team membership, every active user. */
export function identityAccess(address: string, credentials: CallCredentials): Directory {
  const client = identityDirectoryClient(address, credentials, { timeoutMs: 10_000 });
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
      return { teamExists: record.team_exists, role: memberRoleOf(record) ?? '' };
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

/** Delivery's view of identity: who a notification reaches, page by page. */
export function identityDirectory(
  address: string,
  credentials: CallCredentials,
): RecipientDirectory & { close(): void } {
  const client = identityDirectoryClient(address, credentials, { timeoutMs: 10_000 });
  return {
    async contacts(ids) {
      if (ids.length === 0) return [];
      const { users } = await client.call('getUserContacts', { ids: [...ids] });
      return users;
    },
    async teamMemberIds(teamId, cursor, limit) {
      const page = await client.call('listTeamMemberIds', { team_id: teamId, roles: [], cursor, limit });
      return { found: page.found, ids: page.user_ids, next: page.next_cursor };
    },
    async activeUserIds(cursor, limit) {
      const page = await client.call('listActiveUserIds', { cursor, limit });
      return { ids: page.user_ids, next: page.next_cursor };
    },
    close: () => client.close(),
  };
}
