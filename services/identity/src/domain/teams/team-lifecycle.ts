import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode, readPaging } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { isUniqueViolation } from '../../data/roles-repository.js';
import {
  deleteTeamRow,
  insertMember,
  insertTeam,
  listMembers,
  listMembersPage,
  listTeams,
  setMemberRole,
  touchTeam,
} from '../../data/teams-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import { isGlobalAdmin } from '@platform/rbac';
import { invalidatePrincipals } from '../admin-users/principal-changes.js';
import {
  canSeeMemberEmails,
  loadMember,
  loadTeam,
  notifyMember,
  requireTeamOwner,
  requireTeamVisible,
  toTeamRecord,
  toVisibleMemberRecord,
} from './team-access.js';

/** Any signed-in user may create a team and becomes its OWNER; names are unique (5102). */
export async function createTeam(
  deps: IdentityDependencies,
  caller: Principal,
  name: string,
  /** Absent: no description. */
  description = '',
) {
  const teamId = await withTransaction(deps.pool, async (client) => {
    const id = await insertTeam(client, name, description).catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new BusinessError(ErrorCode.TEAM_NAME_EXISTS);
      throw err;
    });
    await insertMember(client, id, caller.user_id, 'OWNER');
    return id;
  });
  // The principal carries the user's team ids: every gateway sees the new team on the next request.
  await invalidatePrincipals(deps, [caller.user_id]);
  return toTeamRecord(await loadTeam(deps.pool, teamId, caller));
}

/** The caller's teams; global admins see every team (`my_role` empty where they are not members). */
export async function listVisibleTeams(
  deps: IdentityDependencies,
  caller: Principal,
  page: number,
  size: number,
) {
  const window = readPaging(page, size);
  const { rows, total } = await listTeams(
    deps.pool,
    caller.user_id,
    isGlobalAdmin(caller),
    window.limit,
    window.offset,
  );
  return { items: rows.map(toTeamRecord), total, page: window.page, page_size: window.pageSize };
}

/** The team and one page of its members (e-mails only for those who manage it, see team-access). */
export async function getTeamDetail(
  deps: IdentityDependencies,
  caller: Principal,
  teamId: string,
  page = 1,
  size = 20,
) {
  const team = await loadTeam(deps.pool, teamId, caller);
  requireTeamVisible(team, caller);
  const window = readPaging(page, size);
  const members = await listMembersPage(deps.pool, team.id, window.limit, window.offset);
  const showEmails = canSeeMemberEmails(team, caller);
  return {
    team: toTeamRecord(team),
    members: members.rows.map((member) => toVisibleMemberRecord(member, caller, showEmails)),
    members_total: members.total,
    page: window.page,
    page_size: window.pageSize,
  };
}

/** OWNER or global admin (3004); the default team stays (5205). Members cascade. */
export async function deleteTeam(deps: IdentityDependencies, caller: Principal, teamId: string) {
  const { team, memberIds } = await withTransaction(deps.pool, async (client) => {
    const found = await loadTeam(client, teamId, caller, true);
    requireTeamOwner(found, caller);
    if (found.is_default) throw new BusinessError(ErrorCode.CANNOT_DELETE_DEFAULT_TEAM);
    const current = await listMembers(client, found.id);
    await deleteTeamRow(client, found.id);
    for (const member of current) {
      if (member.user_id === caller.user_id) continue;
      await notifyMember(client, found, member.user_id, {
        type: 'team.member_removed',
        title: 'Removed from team',
        content: `The team ${found.name} was deleted.`,
        data: { reason: 'team_deleted' },
      });
    }
    return { team: found, memberIds: current.map((member) => member.user_id) };
  });
  await invalidatePrincipals(deps, memberIds);
  return { team_id: team.id };
}

/**
 * OWNER (or a global admin, 3004 otherwise) hands ownership to a current member (4005 otherwise);
 * the previous owner stays as ADMIN. Transferring to the current owner changes nothing.
 */
export async function transferOwnership(
  deps: IdentityDependencies,
  caller: Principal,
  teamId: string,
  newOwnerId: string,
) {
  await withTransaction(deps.pool, async (client) => {
    const team = await loadTeam(client, teamId, caller, true);
    requireTeamOwner(team, caller);
    const target = await loadMember(client, team, newOwnerId);
    if (target.role === 'OWNER') return;
    const owner = (await listMembers(client, team.id)).find((member) => member.role === 'OWNER');
    // Demote first: at most one OWNER per team is a unique index.
    if (owner) await setMemberRole(client, team.id, owner.user_id, 'ADMIN');
    await setMemberRole(client, team.id, target.user_id, 'OWNER');
    await touchTeam(client, team.id);
    await notifyMember(client, team, newOwnerId, {
      type: 'team.ownership_transferred',
      title: 'You are now the team owner',
      content: `You are now the owner of ${team.name}.`,
      data: { previous_owner_id: owner?.user_id ?? null },
    });
  });
  return getTeamDetail(deps, caller, teamId);
}
