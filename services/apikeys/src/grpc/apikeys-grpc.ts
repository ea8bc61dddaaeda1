import { apikeysV1 } from '@platform/contracts';
import { schemaVersion, type Pool } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';

export const SERVICE_NAME = 'platform.apikeys.v1.ApiKeysService';

/** Entry points of the apikeys service: thin handlers that decode, call a use case, encode. */
export function apikeysGrpc(dependencies: { pool: Pool; version: string }) {
  return registration(SERVICE_NAME, apikeysV1.ApiKeysServiceService, {
    getInfo: serviceInfoHandler('apikeys', dependencies.version, () => schemaVersion(dependencies.pool)),
  });
}
