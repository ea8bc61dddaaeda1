import { identityDirectoryClient, type CallCredentials } from '@platform/grpc';

export interface Contact {
  id: string;
  username: string;
  email: string;
  locale: string;
  is_active: boolean;
}

/** Who a notification reaches, from identity (the owner of users and teams). */
export interface RecipientDirectory {
  contacts(ids: readonly string[]): Promise<Contact[]>;
  /** One page of member ids; `found` false when the team does not exist. */
  teamMemberIds(
    teamId: string,
    cursor: string,
    limit: number,
  ): Promise<{ found: boolean; ids: string[]; next: string }>;
  activeUserIds(cursor: string, limit: number): Promise<{ ids: string[]; next: string }>;
}

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
