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

export const TEAMS_SERVICE_NAME = 'platform.identity.v1.TeamsService';

export function teamsGrpc(deps: IdentityDependencies) {
  return registration(TEAMS_SERVICE_NAME, teamsV1.TeamsServiceService, {
    createTeam: (request, context) =>
      createTeam(deps, requirePrincipal(context.principal), request.name, request.description),
    listTeams: (request, context) =>
      listVisibleTeams(deps, requirePrincipal(context.principal), request.page, request.page_size),
    getTeam: (request, context) =>
      getTeamDetail(
        deps,
        requirePrincipal(context.principal),
        request.team_id,
        request.page,
        request.page_size,
      ),
    deleteTeam: (request, context) => deleteTeam(deps, requirePrincipal(context.principal), request.team_id),
    addTeamMember: (request, context) =>
      addTeamMember(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
        role: request.role,
      }),
    updateTeamMemberRole: (request, context) =>
      updateTeamMemberRole(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
        role: request.role,
      }),
    removeTeamMember: (request, context) =>
      removeTeamMember(deps, requirePrincipal(context.principal), {
        teamId: request.team_id,
        userId: request.user_id,
      }),
    leaveTeam: (request, context) => leaveTeam(deps, requirePrincipal(context.principal), request.team_id),
    transferTeamOwnership: (request, context) =>
      transferOwnership(deps, requirePrincipal(context.principal), request.team_id, request.user_id),
  });
}
