import {
  apikeysV1,
  identityV1,
  modelsV1,
  notificationsV1,
  observabilityV1,
  workflowsV1,
} from '@platform/contracts';
import { createServiceClient, type ServiceClient } from '@platform/grpc';
import type { GatewayConfig } from './config.js';

/** One gRPC client per domain service; routes reach services only through these. */
export interface ServiceClients {
  identity: ServiceClient<typeof identityV1.IdentityServiceService>;
  apikeys: ServiceClient<typeof apikeysV1.ApiKeysServiceService>;
  notifications: ServiceClient<typeof notificationsV1.NotificationsServiceService>;
  models: ServiceClient<typeof modelsV1.ModelsServiceService>;
  workflows: ServiceClient<typeof workflowsV1.WorkflowsServiceService>;
  observability: ServiceClient<typeof observabilityV1.ObservabilityServiceService>;
}

export function createServiceClients(config: GatewayConfig): ServiceClients {
  const options = { defaultTimeoutMs: config.GRPC_TIMEOUT_MS };
  return {
    identity: createServiceClient(
      identityV1.IdentityServiceService,
      'platform.identity.v1.IdentityService',
      config.IDENTITY_GRPC_ADDR,
      options,
    ),
    apikeys: createServiceClient(
      apikeysV1.ApiKeysServiceService,
      'platform.apikeys.v1.ApiKeysService',
      config.APIKEYS_GRPC_ADDR,
      options,
    ),
    notifications: createServiceClient(
      notificationsV1.NotificationsServiceService,
      'platform.notifications.v1.NotificationsService',
      config.NOTIFICATIONS_GRPC_ADDR,
      options,
    ),
    models: createServiceClient(
      modelsV1.ModelsServiceService,
      'platform.models.v1.ModelsService',
      config.MODELS_GRPC_ADDR,
      options,
    ),
    workflows: createServiceClient(
      workflowsV1.WorkflowsServiceService,
      'platform.workflows.v1.WorkflowsService',
      config.WORKFLOWS_GRPC_ADDR,
      options,
    ),
    observability: createServiceClient(
      observabilityV1.ObservabilityServiceService,
      'platform.observability.v1.ObservabilityService',
      config.OBSERVABILITY_GRPC_ADDR,
      options,
    ),
  };
}

export function closeServiceClients(clients: ServiceClients): void {
  for (const client of Object.values(clients)) client.close();
}
