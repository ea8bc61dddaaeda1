/** A member's role in a team, highest first. */
export const TEAM_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const RANK: Record<TeamRole, number> = { OWNER: 3, ADMIN: 2, MEMBER: 1 };

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

/**
 * Whether a member's role is at least `minimum` (OWNER > ADMIN > MEMBER). Not a member (no role,
 * an empty string or an unknown value) is never enough.
 */
export function hasTeamRole(role: string | null | undefined, minimum: TeamRole): boolean {
  return isTeamRole(role) && RANK[role] >= RANK[minimum];
}
