import type { TeamRoleName } from '@platform/contracts';

export interface TeamInfo {
  id: string;
  name: string;
}

/** What the grants need to know about teams, from identity (the owner of teams). */
export interface TeamDirectory {
  /** The team, or undefined when identity does not know it. */
  findTeam(teamId: string): Promise<TeamInfo | undefined>;
  /** Ids of the team's members with one of `roles` (every page). */
  memberIds(teamId: string, roles: readonly TeamRoleName[]): Promise<string[]>;
  close(): void;
}
