import { workflowsV1 } from '@platform/contracts';
import { schemaVersion, type Pool } from '@platform/db';
import { registration } from '@platform/grpc';
import { serviceInfoHandler } from '@platform/runtime';

export const SERVICE_NAME = 'platform.workflows.v1.WorkflowsService';

/** Entry points of the workflows service: thin handlers that decode, call a use case, encode. */
export function workflowsGrpc(dependencies: { pool: Pool; version: string }) {
  return registration(SERVICE_NAME, workflowsV1.WorkflowsServiceService, {
    getInfo: serviceInfoHandler('workflows', dependencies.version, () => schemaVersion(dependencies.pool)),
  });
}
