import { observabilityV1 } from '@platform/contracts';
import { schemaVersion } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';
import type { ObservabilityDependencies } from '../deps.js';

export const SERVICE_NAME = 'platform.observability.v1.ObservabilityService';

/** Entry points of the observability service: thin handlers that decode, call a use case, encode. */
export function observabilityGrpc(deps: Pick<ObservabilityDependencies, 'pool' | 'version'>) {
  return registration(SERVICE_NAME, observabilityV1.ObservabilityServiceService, {
    getInfo: serviceInfoHandler('observability', deps.version, () => schemaVersion(deps.pool)),
  });
}
