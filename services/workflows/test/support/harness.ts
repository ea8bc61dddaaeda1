import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { serviceTrust } from '@platform/runtime';
import {
  freshDatabase,
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  startServiceProcess,
  uniqueName,
  type FreshDatabase,
  type IdentityProcess,
  type IdentityUser,
  type IdentityUserOptions,
  type Requester,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { loadWorkflowsConfig, type WorkflowsConfig } from '../../src/config.js';
import { startWorkflows, type StartedWorkflows } from '../../src/workflows-service.js';

export type TestUser = IdentityUser;

export interface WorkflowsHarness {
  workflows: StartedWorkflows;
  config: WorkflowsConfig;
  /** The built identity service as a child process, with a pool on its database. */
  identity: IdentityProcess;
  gateway: Gateway;
  workflowsAddress: string;
  /** The built apikeys service as a child process (harness option `withApiKeys`). */
  apikeys: ServiceProcess | undefined;
  database: FreshDatabase;
  request: Requester;
  /** The gateway's origin (`http://127.0.0.1:<port>`), for raw requests such as SSE. */
  baseUrl: string;
  /** Another gateway replica over the same services (stop it to simulate a gateway restart). */
  startGateway(): Promise<{ baseUrl: string; request: Requester; close(): Promise<void> }>;
  createUser(options?: IdentityUserOptions): Promise<TestUser>;
  stop(): Promise<void>;
}

export const testLogger = createLogger('workflows-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** Environment every process of a harness shares (the local stack's servers and keys). */
export function commonEnv(): Record<string, string | undefined> {
  return {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('workflows'),
    GRPC_PORT: '50099', // unused: the harness binds its own server on a free port
  };
}

/**
 * The real workflows service in-process on its own fresh database, served over gRPC on a free
 * port; the real identity service (built, as a child process on its own database); the real
 * gateway in front of them. `withApiKeys`: also the built apikeys service (a child process that
 * asks this workflows service for workflow names), else the gateway points at the local stack's.
 */
export async function startWorkflowsHarness(
  env: Record<string, string> = {},
  options: { withApiKeys?: boolean; withModels?: boolean } = {},
): Promise<WorkflowsHarness> {
  const identity = await startIdentityProcess();
  // The built models service (llm nodes: quotas, endpoint resolution, usage), else the stack's.
  const models = options.withModels
    ? await startServiceProcess('models', {
        env: {
          IDENTITY_GRPC_ADDR: identity.address,
        },
      })
    : undefined;
  const modelsAddress = models?.address ?? '127.0.0.1:50064';
  const database = await freshDatabase('workflows_t');
  const common = commonEnv();
  const config = loadWorkflowsConfig({
    ...common,
    DATABASE_URL: database.url,
    IDENTITY_GRPC_ADDR: identity.address,
    MODELS_GRPC_ADDR: modelsAddress,
    // Each harness its own `workflow` queue topic: another harness's worker must never take (and,
    // finding no such run in its database, drop) this one's tasks. Run tests turn the worker on.
    QUEUE_TOPIC_PREFIX: `${uniqueName('wfq')}.`,
    RUN_WORKER_ENABLED: 'false',
    ...env,
  });
  const workflows = await startWorkflows(config, testLogger, 'test');
  const grpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: workflows.services,
    trust: serviceTrust('workflows', config),
  });
  const workflowsAddress = `127.0.0.1:${grpc.port}`;
  const apikeys = options.withApiKeys
    ? await startServiceProcess('apikeys', {
        env: {
          IDENTITY_GRPC_ADDR: identity.address,
          WORKFLOWS_GRPC_ADDR: workflowsAddress,
          REDIS_KEY_PREFIX: `${uniqueName('apikeys-wf')}:`,
          AGENT_DIRECTORY_GROUP: uniqueName('test.apikeys.agent-directory'),
        },
      })
    : undefined;
  const gatewayEnv = {
    ...common,
    ...stackEnv.serviceTrustEnv('gateway'),
    IDENTITY_GRPC_ADDR: identity.address,
    APIKEYS_GRPC_ADDR: apikeys?.address ?? '127.0.0.1:50062',
    NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
    MODELS_GRPC_ADDR: modelsAddress,
    WORKFLOWS_GRPC_ADDR: workflowsAddress,
    OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
  };
  const gateway = buildGateway(loadGatewayConfig(gatewayEnv), testLogger, 'test');
  const http: RunningHttp = await listen(gateway.app);
  return {
    workflows,
    config,
    identity,
    gateway,
    workflowsAddress,
    apikeys,
    database,
    request: requester(http.baseUrl),
    baseUrl: http.baseUrl,
    async startGateway() {
      const extra = buildGateway(loadGatewayConfig(gatewayEnv), testLogger, 'test');
      const served = await listen(extra.app);
      return {
        baseUrl: served.baseUrl,
        request: requester(served.baseUrl),
        async close() {
          await served.close();
          await extra.close();
        },
      };
    },
    createUser: (userOptions) => identity.createUser(userOptions),
    async stop() {
      await http.close();
      await gateway.close();
      await grpc.shutdown(1_000);
      await apikeys?.stop();
      await workflows.stop();
      await models?.stop();
      await database.drop();
      await identity.stop();
    },
  };
}

/** A well-formed definition: `n` nodes in a chain. */
export function chainDefinition(n = 2, schemaVersion = 2, label = 'step'): Record<string, unknown> {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    type: i === 0 ? 'start' : 'llm',
    position: { x: i * 200, y: 0 },
    data: { label: `${label} ${i}` },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: `n${i}`, target: node.id }));
  return { schema_version: schemaVersion, nodes, edges };
}
