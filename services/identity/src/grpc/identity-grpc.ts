import { identityV1 } from '@platform/contracts';
import { schemaVersion } from '@platform/db';
import { internalOnly, registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';
import { getPrincipal } from '../domain/principals/get-principal.js';
import { findUserSummaries } from '../data/user-summary-repository.js';
import type { IdentityDependencies } from '../deps.js';
import { principalMessage } from './directory-messages.js';
import { INTERNAL_CALLERS } from './internal-callers.js';

export const SERVICE_NAME = 'platform.identity.v1.IdentityService';

/** Internal RPCs other services and the gateway call: service info, principal lookup, user names. */
export function identityGrpc(deps: IdentityDependencies) {
  const service = registration(SERVICE_NAME, identityV1.IdentityServiceService, {
    getInfo: serviceInfoHandler('identity', deps.version, () => schemaVersion(deps.pool)),
    getPrincipal: async (request) => principalMessage(await getPrincipal(deps.pool, request.user_id)),
    // Owner names for other services' views (apikeys); no principal: a service token instead.
    getUsers: async (request) => ({ users: await findUserSummaries(deps.pool, request.ids) }),
  });
  return internalOnly(service, {
    getPrincipal: INTERNAL_CALLERS.getPrincipal,
    getUsers: INTERNAL_CALLERS.getUsers,
  });
}
