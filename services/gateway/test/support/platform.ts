import { createLogger } from '@platform/logger';
import {
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  startServiceProcess,
  uniqueName,
  type IdentityProcess,
  type Requester,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { buildGateway, loadGatewayConfig, type Gateway } from '../../src/index.js';

export interface GatewayPlatform {
  identity: IdentityProcess;
  apikeys: ServiceProcess;
  gateway: Gateway;
  request: Requester;
  stop(): Promise<void>;
}

const logger = createLogger('gateway-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** The gateway's configuration in front of these identity and apikeys processes, plus `overrides`. */
export function platformGatewayConfig(
  identity: ServiceProcess,
  apikeys: ServiceProcess,
  overrides: Record<string, string> = {},
) {
  return loadGatewayConfig({
    ...process.env,
    ...stackEnv.serviceTrustEnv('gateway'),
    SECRET_KEY: stackEnv.secretKey,
    REDIS_URL: stackEnv.redisUrl,
    IDENTITY_GRPC_ADDR: identity.address,
    APIKEYS_GRPC_ADDR: apikeys.address,
    NOTIFICATIONS_GRPC_ADDR: process.env.NOTIFICATIONS_GRPC_ADDR ?? '127.0.0.1:50063',
    MODELS_GRPC_ADDR: process.env.MODELS_GRPC_ADDR ?? '127.0.0.1:50064',
    WORKFLOWS_GRPC_ADDR: process.env.WORKFLOWS_GRPC_ADDR ?? '127.0.0.1:50065',
    OBSERVABILITY_GRPC_ADDR: process.env.OBSERVABILITY_GRPC_ADDR ?? '127.0.0.1:50066',
    ...overrides,
  });
}

/**
 * The real gateway in-process, with production defaults, in front of the built identity and
 * apikeys services (child processes on fresh databases, see @platform/testing). The other four
 * services are addressed at their local ports; tests of routes into them need them running.
 */
export async function startGatewayPlatform(
  gatewayEnv: Record<string, string> = {},
): Promise<GatewayPlatform> {
  const identity = await startIdentityProcess();
  const apikeys = await startServiceProcess('apikeys', {
    env: {
      IDENTITY_GRPC_ADDR: identity.address,
      REDIS_KEY_PREFIX: `${uniqueName('apikeys-gw')}:`,
      AGENT_DIRECTORY_GROUP: uniqueName('test.gateway.agent-directory'),
    },
  });
  const gateway = buildGateway(platformGatewayConfig(identity, apikeys, gatewayEnv), logger, 'test');
  const http: RunningHttp = await listen(gateway.app);
  return {
    identity,
    apikeys,
    gateway,
    request: requester(http.baseUrl),
    async stop() {
      await http.close();
      await gateway.close();
      await apikeys.stop();
      await identity.stop();
    },
  };
}
