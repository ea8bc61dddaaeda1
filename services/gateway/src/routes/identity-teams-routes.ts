import { TEAM_ROLE_SET } from '@platform/contracts';
import type * as teamsV1 from '@platform/contracts/platform/identity/v1/teams';
import { ErrorCode } from '@platform/errors';
import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { paged } from './identity-route-schemas.js';
import { defineRoute } from './route-definition.js';
import { nonBlankText, pagingQuery } from './validation.js';

/**
 * Teams: any signed-in user (no global permission); the team-level checks (3002-3004) live in
 * identity. `role` accepts OWNER so identity can answer with its specific codes (5206, 5208)
 * instead of a generic 1001.
 */
const teamRole = z.enum(TEAM_ROLE_SET.names);

const teamSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  is_default: z.boolean(),
  member_count: z.number().int(),
  my_role: teamRole.nullable().describe("The caller's role; null when not a member (global admins)"),
  created_at: z.string(),
  updated_at: z.string(),
});
const memberSchema = z.object({
  team_id: z.uuid(),
  user_id: z.uuid(),
  username: z.string(),
  email: z
    .string()
    .nullable()
    .describe("null unless the caller is the team's OWNER/ADMIN, a global admin, or this member"),
  role: teamRole,
  joined_at: z.string(),
});
const detailSchema = teamSchema.extend({
  members: z.array(memberSchema).describe('One page of the members (`page`, `page_size`)'),
  members_total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

function toHttpTeam(team: teamsV1.TeamRecord | undefined) {
  return team ? { ...team, my_role: TEAM_ROLE_SET.fromProto(team.my_role) ?? null } : null;
}
/** A member as a change answers it (the caller manages the team, so the e-mail is shown as is). */
function withRoleName(member: teamsV1.TeamMemberRecord) {
  return { ...member, role: TEAM_ROLE_SET.fromProto(member.role) };
}
function toHttpMember(member: teamsV1.TeamMemberRecord) {
  return { ...withRoleName(member), email: member.email || null };
}
function toHttpTeamDetail(detail: teamsV1.TeamDetail) {
  return {
    ...toHttpTeam(detail.team),
    members: detail.members.map(toHttpMember),
    members_total: detail.members_total,
    page: detail.page,
    page_size: detail.page_size,
  };
}

const teamParams = z.object({ id: z.uuid() });
type TeamParams = z.infer<typeof teamParams>;
const memberParams = z.object({ id: z.uuid(), user_id: z.uuid() });
type MemberParams = z.infer<typeof memberParams>;
const createBody = z.object({
  name: nonBlankText(100),
  description: z.string().max(500).optional(),
});
type CreateBody = z.infer<typeof createBody>;
const addMemberBody = z.object({ user_id: z.uuid(), role: teamRole });
type AddMemberBody = z.infer<typeof addMemberBody>;
const roleBody = z.object({ role: teamRole });
type RoleBody = z.infer<typeof roleBody>;
const transferBody = z.object({ user_id: z.uuid() });
type TransferBody = z.infer<typeof transferBody>;
const pagingSchema = z.object({ ...pagingQuery });
type Paging = z.infer<typeof pagingSchema>;

const base = { tags: ['teams'], auth: 'user' as const };

export const identityTeamsRoutes = [
  defineRoute<ServiceClients, undefined, undefined, CreateBody, teamsV1.TeamRecord>({
    ...base,
    method: 'post',
    path: '/teams',
    errors: [ErrorCode.TEAM_NAME_EXISTS],
    summary: 'Create a team (the caller becomes OWNER)',
    body: createBody,
    response: teamSchema,
    invoke: ({ body }, { clients, principal }) =>
      clients.teams.call('createTeam', { name: body.name, description: body.description }, { principal }),
    present: toHttpTeam,
  }),
  defineRoute<ServiceClients, undefined, Paging, undefined, teamsV1.ListTeamsResponse>({
    ...base,
    method: 'get',
    path: '/teams',
    summary: "The caller's teams (global admins: every team)",
    query: pagingSchema,
    response: paged(teamSchema),
    invoke: ({ query }, { clients, principal }) =>
      clients.teams.call('listTeams', { page: query.page, page_size: query.page_size }, { principal }),
    present: (list) => ({ ...list, items: list.items.map(toHttpTeam) }),
  }),
  defineRoute<ServiceClients, TeamParams, Paging, undefined, teamsV1.TeamDetail>({
    ...base,
    method: 'get',
    path: '/teams/:id',
    errors: [ErrorCode.TEAM_NOT_FOUND, ErrorCode.NOT_TEAM_MEMBER],
    summary: "A team with one page of its members (e-mails for the team's OWNER/ADMIN and global admins)",
    params: teamParams,
    query: pagingSchema,
    response: detailSchema,
    invoke: ({ params, query }, { clients, principal }) =>
      clients.teams.call(
        'getTeam',
        { team_id: params.id, page: query.page, page_size: query.page_size },
        { principal },
      ),
    present: toHttpTeamDetail,
  }),
  defineRoute<ServiceClients, TeamParams, undefined, undefined, teamsV1.DeleteTeamResponse>({
    ...base,
    method: 'delete',
    path: '/teams/:id',
    errors: [ErrorCode.TEAM_NOT_FOUND, ErrorCode.TEAM_OWNER_REQUIRED, ErrorCode.CANNOT_DELETE_DEFAULT_TEAM],
    summary: 'Delete a team (OWNER or global admin; not the default team)',
    params: teamParams,
    response: z.object({ team_id: z.uuid() }),
    invoke: ({ params }, { clients, principal }) =>
      clients.teams.call('deleteTeam', { team_id: params.id }, { principal }),
  }),
  defineRoute<ServiceClients, TeamParams, undefined, AddMemberBody, teamsV1.TeamMemberRecord>({
    ...base,
    method: 'post',
    path: '/teams/:id/members',
    errors: [
      ErrorCode.TEAM_NOT_FOUND,
      ErrorCode.USER_NOT_FOUND,
      ErrorCode.ALREADY_TEAM_MEMBER,
      ErrorCode.CANNOT_ADD_AS_OWNER,
      ErrorCode.TEAM_ADMIN_REQUIRED,
      ErrorCode.NOT_TEAM_MEMBER,
    ],
    summary: 'Add a member as ADMIN or MEMBER (team OWNER/ADMIN)',
    params: teamParams,
    body: addMemberBody,
    response: memberSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.teams.call(
        'addTeamMember',
        { team_id: params.id, user_id: body.user_id, role: TEAM_ROLE_SET.toProto(body.role) },
        { principal },
      ),
    present: withRoleName,
  }),
  defineRoute<ServiceClients, MemberParams, undefined, RoleBody, teamsV1.TeamMemberRecord>({
    ...base,
    method: 'put',
    path: '/teams/:id/members/:user_id',
    errors: [
      ErrorCode.TEAM_NOT_FOUND,
      ErrorCode.TEAM_MEMBER_NOT_FOUND,
      ErrorCode.CANNOT_PROMOTE_TO_OWNER,
      ErrorCode.CANNOT_CHANGE_OWNER_ROLE,
      ErrorCode.TEAM_ADMIN_REQUIRED,
      ErrorCode.NOT_TEAM_MEMBER,
    ],
    summary: "Change a member's team role (team OWNER/ADMIN)",
    params: memberParams,
    body: roleBody,
    response: memberSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.teams.call(
        'updateTeamMemberRole',
        { team_id: params.id, user_id: params.user_id, role: TEAM_ROLE_SET.toProto(body.role) },
        { principal },
      ),
    present: withRoleName,
  }),
  defineRoute<ServiceClients, MemberParams, undefined, undefined, teamsV1.RemoveTeamMemberResponse>({
    ...base,
    method: 'delete',
    path: '/teams/:id/members/:user_id',
    errors: [
      ErrorCode.TEAM_NOT_FOUND,
      ErrorCode.TEAM_MEMBER_NOT_FOUND,
      ErrorCode.CANNOT_REMOVE_OWNER,
      ErrorCode.TEAM_ADMIN_REQUIRED,
      ErrorCode.NOT_TEAM_MEMBER,
    ],
    summary: 'Remove a member (team OWNER/ADMIN; never the owner)',
    params: memberParams,
    response: z.object({ team_id: z.uuid(), user_id: z.uuid() }),
    invoke: ({ params }, { clients, principal }) =>
      clients.teams.call('removeTeamMember', { team_id: params.id, user_id: params.user_id }, { principal }),
  }),
  defineRoute<ServiceClients, TeamParams, undefined, undefined, teamsV1.LeaveTeamResponse>({
    ...base,
    method: 'post',
    path: '/teams/:id/leave',
    errors: [
      ErrorCode.TEAM_NOT_FOUND,
      ErrorCode.OWNER_CANNOT_LEAVE,
      { code: ErrorCode.NOT_TEAM_MEMBER, status: 404 },
    ],
    summary: 'Leave a team (the owner transfers ownership first)',
    params: teamParams,
    response: z.object({ team_id: z.uuid() }),
    invoke: ({ params }, { clients, principal }) =>
      clients.teams.call('leaveTeam', { team_id: params.id }, { principal }),
  }),
  defineRoute<ServiceClients, TeamParams, undefined, TransferBody, teamsV1.TeamDetail>({
    ...base,
    method: 'post',
    path: '/teams/:id/transfer-ownership',
    errors: [
      ErrorCode.TEAM_NOT_FOUND,
      ErrorCode.TEAM_MEMBER_NOT_FOUND,
      ErrorCode.TEAM_OWNER_REQUIRED,
      ErrorCode.NOT_TEAM_MEMBER,
    ],
    summary: 'Hand ownership to a member (OWNER; the old owner becomes ADMIN)',
    params: teamParams,
    body: transferBody,
    response: detailSchema,
    invoke: ({ params, body }, { clients, principal }) =>
      clients.teams.call(
        'transferTeamOwnership',
        { team_id: params.id, user_id: body.user_id },
        { principal },
      ),
    present: toHttpTeamDetail,
  }),
];
