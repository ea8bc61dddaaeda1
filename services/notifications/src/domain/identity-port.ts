// What notifications needs from identity (the owner of users and teams), for the in-app side and
// for delivery; adapters/identity-access.ts implements it over identity's DirectoryService.
export interface UserContact {
  id: string;
  username: string;
  email: string;
  locale: string;
  is_active: boolean;
}

/** A recipient as delivery addresses them. */
export type Contact = UserContact;

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
