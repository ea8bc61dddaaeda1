import * as directoryV1 from '@platform/contracts/platform/identity/v1/directory';
import { internalOnly, registration } from '@platform/grpc';
import {
  getDefaultTeam,
  getTeamMembership,
  getUserContacts,
  listActiveUserIds,
  listTeamMemberIds,
} from '../domain/directory/directory-lookups.js';
import type { IdentityDependencies } from '../deps.js';
import { membershipMessage, requestedRoles } from './directory-messages.js';
import { INTERNAL_CALLERS } from './internal-callers.js';

export const DIRECTORY_SERVICE_NAME = 'platform.identity.v1.DirectoryService';

/** Users and teams as other services need them; every method internal-only (INTERNAL_CALLERS). */
export function directoryGrpc(deps: IdentityDependencies) {
  const { pool } = deps;
  const service = registration(DIRECTORY_SERVICE_NAME, directoryV1.DirectoryServiceService, {
    getUserContacts: (request) => getUserContacts(pool, request.ids),
    getTeamMembership: async (request) =>
      membershipMessage(await getTeamMembership(pool, request.team_id, request.user_id)),
    listTeamMemberIds: (request) =>
      listTeamMemberIds(pool, { ...request, roles: requestedRoles(request.roles) }),
    listActiveUserIds: (request) => listActiveUserIds(pool, request),
    getDefaultTeam: (request) => getDefaultTeam(pool, request.user_id),
  });
  return internalOnly(service, {
    getUserContacts: INTERNAL_CALLERS.getUserContacts,
    getTeamMembership: INTERNAL_CALLERS.getTeamMembership,
    listTeamMemberIds: INTERNAL_CALLERS.listTeamMemberIds,
    listActiveUserIds: INTERNAL_CALLERS.listActiveUserIds,
    getDefaultTeam: INTERNAL_CALLERS.getDefaultTeam,
  });
}
