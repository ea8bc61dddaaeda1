import * as teamsV1 from '@platform/contracts/platform/identity/v1/teams';
import { registration } from '@platform/grpc';
import { requirePrincipal } from '@platform/rbac';
import {
  addTeamMember,
  leaveTeam,
  removeTeamMember,
  updateTeamMemberRole,
} from '../domain/teams/manage-team-members.js';
import {
  createTeam,
  deleteTeam,
  getTeamDetail,
  listVisibleTeams,
  transferOwnership,
} from '../domain/teams/team-lifecycle.js';
import type { IdentityDependencies } from '../deps.js';
import { requestedTeamRole, withMyRole, withTeamRole } from './identity-messages.js';

export const TEAMS_SERVICE_NAME = 'platform.identity.v1.TeamsService';

/** A team with one page of its members, roles as the messages carry them. */
function teamDetailMessage(detail: Awaited<ReturnType<typeof getTeamDetail>>): teamsV1.TeamDetail {
  return { ...detail, team: withMyRole(detail.team), members: detail.members.map(withTeamRole) };
}

export function teamsGrpc(deps: IdentityDependencies) {
  return registration(TEAMS_SERVICE_NAME, teamsV1.TeamsServiceService, {
    createTeam: (request, context) =>
      createTeam(deps, requirePrincipal(context.principal), request.name, request.description).then(
        withMyRole,
      ),
    listTeams: async (request, context) => {
      const teams = await listVisibleTeams(
        deps,
        requirePrincipal(context.principal),
        request.page,
        request.page_size,
      );
      return { ...teams, items: teams.items.map(withMyRole) };
    },
    getTeam: (request, context) =>
      getTeamDetail(
        deps,
        requirePrincipal(context.principal),
        request.team_id,
        request.page,
        request.page_size,
      ).then(teamDetailMessage),
    deleteTeam: (request, context) => deleteTeam(deps, requirePrincipal(context.principal), request.team_id),
    addTeamMember: (request, context) =>
      addTeamMember(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
        role: requestedTeamRole(request.role),
      }).then(withTeamRole),
    updateTeamMemberRole: (request, context) =>
      updateTeamMemberRole(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
        role: requestedTeamRole(request.role),
      }).then(withTeamRole),
    removeTeamMember: (request, context) =>
      removeTeamMember(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
      }),
    leaveTeam: (request, context) => leaveTeam(deps, requirePrincipal(context.principal), request.team_id),
    transferTeamOwnership: (request, context) =>
      transferOwnership(deps, requirePrincipal(context.principal), request.team_id, request.user_id).then(
        teamDetailMessage,
      ),
  });
}
