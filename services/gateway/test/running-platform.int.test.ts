import {
  apikeysV1,
  identityV1,
  modelsV1,
  notificationsV1,
  observabilityV1,
  workflowsV1,
} from '@platform/contracts';
import { checkHealth, createServiceClient, type ServiceDefinition } from '@platform/grpc';
import { stackEnv } from '@platform/testing';
import { describe, expect, it } from 'vitest';

// The seven services as started by `./platform up` (deploy/local/services.sh), over the real stack.
const services: [string, ServiceDefinition, string, string | undefined][] = [
  [
    'identity',
    identityV1.IdentityServiceService,
    'platform.identity.v1.IdentityService',
    process.env.IDENTITY_GRPC_ADDR,
  ],
  [
    'apikeys',
    apikeysV1.ApiKeysServiceService,
    'platform.apikeys.v1.ApiKeysService',
    process.env.APIKEYS_GRPC_ADDR,
  ],
  [
    'notifications',
    notificationsV1.NotificationsServiceService,
    'platform.notifications.v1.NotificationsService',
    process.env.NOTIFICATIONS_GRPC_ADDR,
  ],
  ['models', modelsV1.ModelsServiceService, 'platform.models.v1.ModelsService', process.env.MODELS_GRPC_ADDR],
  [
    'workflows',
    workflowsV1.WorkflowsServiceService,
    'platform.workflows.v1.WorkflowsService',
    process.env.WORKFLOWS_GRPC_ADDR,
  ],
  [
    'observability',
    observabilityV1.ObservabilityServiceService,
    'platform.observability.v1.ObservabilityService',
    process.env.OBSERVABILITY_GRPC_ADDR,
  ],
];

describe('the running platform', () => {
  it('serves GET /api/v1/health through the gateway', async () => {
    const response = await fetch(`${stackEnv.gatewayUrl}/api/v1/health`);
    expect(await response.json()).toEqual({ code: 0, data: { status: 'healthy' }, msg: 'Success' });
  });

  it.each(services)(
    '%s answers the gRPC health protocol and GetInfo from its own database',
    async (name, definition, fqName, address) => {
      expect(address, `${name} address from deploy/local/env.sh`).toBeTruthy();
      expect(await checkHealth(address!, '')).toBe('SERVING');
      expect(await checkHealth(address!, fqName)).toBe('SERVING');
      const client = createServiceClient(definition, fqName, address!);
      try {
        const info = (await client.call('getInfo', {})) as {
          service: string;
          schema_version: string;
          started_at: string;
        };
        expect(info.service).toBe(name);
        expect(info.schema_version).not.toBe('');
        expect(Number.isNaN(Date.parse(info.started_at))).toBe(false);
      } finally {
        client.close();
      }
    },
  );
});
