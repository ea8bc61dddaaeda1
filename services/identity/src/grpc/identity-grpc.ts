import { identityV1 } from '@platform/contracts';
import { schemaVersion, type Pool } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';

export const SERVICE_NAME = 'platform.identity.v1.IdentityService';

/** Entry points of the identity service: thin handlers that decode, call a use case, encode. */
export function identityGrpc(dependencies: { pool: Pool; version: string }) {
  return registration(SERVICE_NAME, identityV1.IdentityServiceService, {
    getInfo: serviceInfoHandler('identity', dependencies.version, () => schemaVersion(dependencies.pool)),
  });
}
