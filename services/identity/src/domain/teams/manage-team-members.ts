import { withTransaction, type PoolClient } from '@platform/db';
import { BusinessError, ErrorCode, isUuid } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import {
  deleteMember,
  findMember,
  insertMember,
  setMemberRole,
  userExists,
  type TeamRole,
  type TeamRow,
} from '../../data/teams-repository.js';
import type { IdentityDependencies } from '../../deps.js';
import { invalidatePrincipals } from '../admin-users/principal-changes.js';
import { loadManagedTeam, loadMember, loadTeam, notifyMember, toTeamMemberRecord } from './team-access.js';

/** The role is one of the closed set: the handler translated it from the proto enum. */
type MemberRoleInput = { teamId: string; userId: string; role: TeamRole };

/** Runs `change` in a transaction on the team (locked) the caller manages (4004, 3003 otherwise). */
function changeMemberRole<T>(
  deps: IdentityDependencies,
  caller: Principal,
  input: MemberRoleInput,
  change: (client: PoolClient, team: TeamRow) => Promise<T>,
): Promise<T> {
  return withTransaction(deps.pool, async (client) =>
    change(client, await loadManagedTeam(client, input.teamId, caller)),
  );
}

/**
 * Team membership rules: OWNER/ADMIN (or a global admin) manage members (3003); ownership only
 * moves by transfer, so nobody is added as (5206) or promoted to (5208) OWNER, and the owner's
 * role (5207) and membership (5209) are fixed. Every change notifies the affected user.
 */
export async function addTeamMember(deps: IdentityDependencies, caller: Principal, input: MemberRoleInput) {
  const result = await changeMemberRole(deps, caller, input, async (client, team) => {
    if (input.role === 'OWNER') throw new BusinessError(ErrorCode.CANNOT_ADD_AS_OWNER);
    if (!isUuid(input.userId) || !(await userExists(client, input.userId))) {
      throw new BusinessError(ErrorCode.USER_NOT_FOUND);
    }
    if (await findMember(client, team.id, input.userId))
      throw new BusinessError(ErrorCode.ALREADY_TEAM_MEMBER);
    await insertMember(client, team.id, input.userId, input.role);
    await notifyMember(client, team, input.userId, {
      type: 'team.member_added',
      title: 'Added to team',
      content: `You were added to ${team.name} as ${input.role}.`,
      data: { role: input.role },
    });
    return { team, member: (await findMember(client, team.id, input.userId))! };
  });
  // The principal carries the user's team ids: every gateway sees the new team on the next request.
  await invalidatePrincipals(deps, [input.userId]);
  return toTeamMemberRecord(result.member);
}

export async function updateTeamMemberRole(
  deps: IdentityDependencies,
  caller: Principal,
  input: MemberRoleInput,
) {
  const result = await changeMemberRole(deps, caller, input, async (client, team) => {
    const member = await loadMember(client, team, input.userId);
    if (member.role === 'OWNER') throw new BusinessError(ErrorCode.CANNOT_CHANGE_OWNER_ROLE);
    if (input.role === 'OWNER') throw new BusinessError(ErrorCode.CANNOT_PROMOTE_TO_OWNER);
    if (member.role === input.role) return { team, member };
    await setMemberRole(client, team.id, member.user_id, input.role);
    await notifyMember(client, team, input.userId, {
      type: 'team.role_changed',
      title: 'Team role changed',
      content: `Your role in ${team.name} is now ${input.role}.`,
      data: { role: input.role, previous_role: member.role },
    });
    return { team, member: { ...member, role: input.role } };
  });
  return toTeamMemberRecord(result.member);
}

export async function removeTeamMember(
  deps: IdentityDependencies,
  caller: Principal,
  input: { teamId: string; userId: string },
) {
  const team = await withTransaction(deps.pool, async (client) => {
    const found = await loadManagedTeam(client, input.teamId, caller);
    const member = await loadMember(client, found, input.userId);
    if (member.role === 'OWNER') throw new BusinessError(ErrorCode.CANNOT_REMOVE_OWNER);
    await deleteMember(client, found.id, member.user_id);
    if (input.userId !== caller.user_id) {
      await notifyMember(client, found, input.userId, {
        type: 'team.member_removed',
        title: 'Removed from team',
        content: `You were removed from ${found.name}.`,
      });
    }
    return found;
  });
  await invalidatePrincipals(deps, [input.userId]);
  return { team_id: team.id, user_id: input.userId };
}

/** Not a member: 3002 with HTTP 404 (spec); the owner must transfer ownership first (5210). */
export async function leaveTeam(deps: IdentityDependencies, caller: Principal, teamId: string) {
  await withTransaction(deps.pool, async (client) => {
    const team = await loadTeam(client, teamId, caller, true);
    if (!team.my_role) throw new BusinessError(ErrorCode.NOT_TEAM_MEMBER, { httpStatus: 404 });
    if (team.my_role === 'OWNER') throw new BusinessError(ErrorCode.OWNER_CANNOT_LEAVE);
    await deleteMember(client, team.id, caller.user_id);
  });
  await invalidatePrincipals(deps, [caller.user_id]);
  return { team_id: teamId };
}
