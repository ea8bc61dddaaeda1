import type { PoolClient, Pool } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findMember, findTeam, type TeamMemberRow, type TeamRow } from '../../data/teams-repository.js';
import { notifyUser } from '../identity-events.js';
import { hasTeamRole, isGlobalAdmin } from '@platform/rbac';

export function teamNotFound(): BusinessError {
  return BusinessError.named('team_not_found');
}

/** The team (4004 when unknown or the id is malformed), locked when inside a transaction. */
export async function loadTeam(db: Pool | PoolClient, teamId: string, caller: Principal, lock = false) {
  if (!isUuid(teamId)) throw teamNotFound();
  const team = await findTeam(db, teamId, caller.user_id, lock);
  if (!team) throw teamNotFound();
  return team;
}

/** Members read the team; so do global admins (3002 otherwise). */
export function requireTeamVisible(team: TeamRow, caller: Principal): void {
  if (!team.my_role && !isGlobalAdmin(caller)) throw new BusinessError(ErrorCode.NOT_TEAM_MEMBER);
}

/** Member management: team OWNER or ADMIN, or a global admin (3003 otherwise). */
export function requireTeamAdmin(team: TeamRow, caller: Principal): void {
  if (hasTeamRole(team.my_role, 'ADMIN') || isGlobalAdmin(caller)) return;
  throw BusinessError.named('team_admin_required');
}

/** Ownership transfer and team deletion: the OWNER, or a global admin (3004 otherwise). */
export function requireTeamOwner(team: TeamRow, caller: Principal): void {
  if (hasTeamRole(team.my_role, 'OWNER') || isGlobalAdmin(caller)) return;
  throw new BusinessError(ErrorCode.TEAM_OWNER_REQUIRED);
}

export function memberNotFound(): BusinessError {
  return new BusinessError(ErrorCode.TEAM_MEMBER_NOT_FOUND);
}

/** The team, locked, when the caller may manage its members (4004, 3003 otherwise). */
export async function loadManagedTeam(
  client: PoolClient,
  teamId: string,
  caller: Principal,
): Promise<TeamRow> {
  const team = await loadTeam(client, teamId, caller, true);
  requireTeamAdmin(team, caller);
  return team;
}

/** A current member of the team (3005 when not, or when the id is malformed). */
export async function loadMember(client: PoolClient, team: TeamRow, userId: string) {
  const member = isUuid(userId) ? await findMember(client, team.id, userId) : undefined;
  if (!member) throw memberNotFound();
  return member;
}

/**
 * Tells the affected user about a membership change, in the change's transaction; `data` always
 * names the team.
 */
export function notifyMember(
  tx: PoolClient,
  team: TeamRow,
  userId: string,
  notice: { type: string; title: string; content: string; data?: Record<string, unknown> },
) {
  return notifyUser(tx, {
    ...notice,
    userId,
    teamId: team.id,
    data: { team_id: team.id, team_name: team.name, ...notice.data },
  });
}

export function toTeamRecord(team: TeamRow) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    is_default: team.is_default,
    member_count: team.member_count,
    my_role: team.my_role,
    created_at: team.created_at.toISOString(),
    updated_at: team.updated_at.toISOString(),
  };
}

export function toTeamMemberRecord(member: TeamMemberRow) {
  return { ...member, joined_at: member.joined_at.toISOString() };
}

/**
 * Members' e-mail addresses are for the people who manage the team: its OWNER/ADMIN and global
 * admins. Everyone else (every user is in the default team) sees only their own.
 */
export function canSeeMemberEmails(team: TeamRow, caller: Principal): boolean {
  return team.my_role === 'OWNER' || team.my_role === 'ADMIN' || isGlobalAdmin(caller);
}

export function toVisibleMemberRecord(member: TeamMemberRow, caller: Principal, showEmails: boolean) {
  const record = toTeamMemberRecord(member);
  return showEmails || member.user_id === caller.user_id ? record : { ...record, email: '' };
}
