import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import {
  freshDatabase,
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  testClock,
  uniqueName,
  type IdentityProcess,
  type IdentityUser,
  type IdentityUserOptions,
  type Requester,
  type RunningHttp,
  type TestClock,
} from '@platform/testing';
import { serviceTrust } from '@platform/runtime';
import { loadApiKeysConfig } from '../../src/config.js';
import { startApiKeys, type StartedApiKeys } from '../../src/apikeys-service.js';

export type TestUser = IdentityUser;

export interface ApiKeysHarness {
  apikeys: StartedApiKeys;
  /** The built identity service as a child process, with a pool on its database. */
  identity: IdentityProcess;
  gateway: Gateway;
  identityAddress: string;
  apikeysAddress: string;
  redisPrefix: string;
  /** The time apikeys' key checks go by (real time until a test moves it). */
  clock: TestClock;
  request: Requester;
  createUser(options?: IdentityUserOptions): Promise<TestUser>;
  stop(): Promise<void>;
}

export const testLogger = createLogger('apikeys-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/**
 * The real apikeys service in-process on its own fresh database, served over gRPC on a free port;
 * the real identity service (built, as a child process on its own database); the real gateway
 * (route table, JWT, API-key verifier, Redis) in front of both. apikeys gets unique Redis keys and
 * a unique agent-directory consumer group.
 */
export async function startApiKeysHarness(env: Record<string, string> = {}): Promise<ApiKeysHarness> {
  const identity = await startIdentityProcess();
  const database = await freshDatabase('apikeys_t');
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('apikeys'),
    GRPC_PORT: '50099', // unused: the harness binds its own server on a free port
  };
  const redisPrefix = `${uniqueName('apikeys-t')}:`;
  const clock = testClock();
  const apikeysConfig = loadApiKeysConfig({
    ...common,
    DATABASE_URL: database.url,
    IDENTITY_GRPC_ADDR: identity.address,
    REDIS_KEY_PREFIX: redisPrefix,
    AGENT_DIRECTORY_GROUP: uniqueName('test.apikeys.agent-directory'),
    ...env,
  });
  const apikeys = await startApiKeys(apikeysConfig, testLogger, 'test', clock.date);
  const apikeysGrpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: apikeys.services,
    trust: serviceTrust('apikeys', apikeysConfig),
  });
  const apikeysAddress = `127.0.0.1:${apikeysGrpc.port}`;
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: apikeysAddress,
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);

  return {
    apikeys,
    identity,
    gateway,
    identityAddress: identity.address,
    apikeysAddress,
    redisPrefix,
    clock,
    request: requester(http.baseUrl),
    createUser: (options) => identity.createUser(options),
    async stop() {
      await http.close();
      await gateway.close();
      await apikeysGrpc.shutdown(1_000);
      await apikeys.stop();
      await database.drop();
      await identity.stop();
    },
  };
}
