import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import {
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  startServiceProcess,
  type IdentityProcess,
  type IdentityUser,
  type Requester,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { createNodeRuntime, type NodeRuntime } from '../../src/adapters/node-dependencies.js';
import { loadWorkflowsConfig } from '../../src/config.js';
import type { NodeModules } from '../../src/domain/runs/engine/contract.js';
import { createNodeModules } from '../../src/domain/runs/nodes/index.js';
import { commonEnv, testLogger } from './harness.js';

export interface NodeStack {
  identity: IdentityProcess;
  /** The built models service as a child process (option `withModels`). */
  models: ServiceProcess | undefined;
  gateway: Gateway;
  request: Requester;
  admin: IdentityUser;
  /** The node set over the real adapters (settings read uncached, so a change applies at once). */
  modules: NodeModules;
  runtime: NodeRuntime;
  /** PUT /admin/site-settings as an admin; throws unless it answers code 0. */
  putSettings(settings: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the node modules talk to in production, for their integration tests: the built identity
 * (site settings) and optionally the built models service, each a child process on its own
 * database, the real gateway in front (admin routes for settings, models and grants), and the node
 * set built by `createNodeRuntime` exactly as the workflows service builds it.
 */
export async function startNodeStack(options: { withModels?: boolean } = {}): Promise<NodeStack> {
  const identity = await startIdentityProcess();
  const models = options.withModels
    ? await startServiceProcess('models', {
        env: {
          IDENTITY_GRPC_ADDR: identity.address,
        },
      })
    : undefined;
  const common = commonEnv();
  const modelsAddress = models?.address ?? '127.0.0.1:50064';
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: modelsAddress,
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  const request = requester(http.baseUrl);
  const admin = await identity.createUser({ roles: ['Admin'], name: 'nodeadmin' });
  const config = loadWorkflowsConfig({
    ...common,
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    IDENTITY_GRPC_ADDR: identity.address,
    MODELS_GRPC_ADDR: modelsAddress,
  });
  const runtime = createNodeRuntime(config, testLogger, { ttlMs: 0 });
  return {
    identity,
    models,
    gateway,
    request,
    admin,
    modules: createNodeModules(runtime.deps),
    runtime,
    async putSettings(settings) {
      const res = await request('PUT', '/admin/site-settings', { token: admin.token, json: settings });
      if (res.body.code !== 0) throw new Error(`settings not saved: ${JSON.stringify(res.body)}`);
    },
    async stop() {
      await runtime.stop();
      await http.close();
      await gateway.close();
      await models?.stop();
      await identity.stop();
    },
  };
}
