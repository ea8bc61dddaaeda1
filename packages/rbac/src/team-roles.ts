import { TEAM_ROLE_SET, type TeamRoleName } from '@platform/contracts';

/** A member's role in a team, highest first (the closed set lives in `@platform/contracts`). */
export const TEAM_ROLES = TEAM_ROLE_SET.names;
export type TeamRole = TeamRoleName;

const RANK: Record<TeamRole, number> = { OWNER: 3, ADMIN: 2, MEMBER: 1 };

export function isTeamRole(value: unknown): value is TeamRole {
  return TEAM_ROLE_SET.has(value);
}

/**
 * Whether a member's role is at least `minimum` (OWNER > ADMIN > MEMBER). Not a member (no role,
 * an empty string or an unknown value) is never enough.
 */
export function hasTeamRole(role: string | null | undefined, minimum: TeamRole): boolean {
  return isTeamRole(role) && RANK[role] >= RANK[minimum];
}
