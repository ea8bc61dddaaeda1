import { modelsV1 } from '@platform/contracts';
import { schemaVersion, type Pool } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';

export const SERVICE_NAME = 'platform.models.v1.ModelsService';

/** Entry points of the models service: thin handlers that decode, call a use case, encode. */
export function modelsGrpc(dependencies: { pool: Pool; version: string }) {
  return registration(SERVICE_NAME, modelsV1.ModelsServiceService, {
    getInfo: serviceInfoHandler('models', dependencies.version, () => schemaVersion(dependencies.pool)),
  });
}
