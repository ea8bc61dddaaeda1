import { observabilityV1 } from '@platform/contracts';
import { schemaVersion, type Pool } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';

export const SERVICE_NAME = 'platform.observability.v1.ObservabilityService';

/** Entry points of the observability service: thin handlers that decode, call a use case, encode. */
export function observabilityGrpc(dependencies: { pool: Pool; version: string }) {
  return registration(SERVICE_NAME, observabilityV1.ObservabilityServiceService, {
    getInfo: serviceInfoHandler('observability', dependencies.version, () =>
      schemaVersion(dependencies.pool),
    ),
  });
}
