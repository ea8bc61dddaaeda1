import { buildGateway, loadGatewayConfig } from '@platform/gateway';
import { startGrpcServer } from '@platform/grpc';
import { serviceTrust } from '@platform/runtime';
import { listen, requester, stackEnv, type Requester } from '@platform/testing';
import { expect } from 'vitest';
import { startWorkflows } from '../../src/workflows-service.js';
import { chainDefinition, commonEnv, testLogger, type TestUser, type WorkflowsHarness } from './harness.js';

/** A `/workflow-versions` create body: a chain of `n` nodes, its config and description. */
export function versionBody(workflowId: string, n = 2, label = 'step', config: Record<string, unknown> = {}) {
  const { nodes, edges } = chainDefinition(n, 2, label) as { nodes: unknown[]; edges: unknown[] };
  return { workflow_id: workflowId, nodes, edges, config, description: `${label} x${n}` };
}

/** The thin client every versions test uses: one user's calls through a gateway. */
export function versionsClient(request: Requester, user: TestUser) {
  const call = (method: string, path: string, json?: unknown) =>
    request(method, path, json === undefined ? { token: user.token } : { token: user.token, json });
  return {
    call,
    async workflow(definition: Record<string, unknown> = chainDefinition()) {
      const res = await call('POST', '/workflows', { name: 'versioned', definition });
      expect([res.status, res.body.code]).toEqual([200, 0]);
      return res.body.data as { id: string; version: number; definition: Record<string, unknown> };
    },
    async create(workflowId: string, n = 2, label = 'step', config: Record<string, unknown> = {}) {
      const res = await call('POST', '/workflow-versions', versionBody(workflowId, n, label, config));
      expect([res.status, res.body.code, res.body.msg]).toEqual([200, 0, res.body.msg]);
      return res.body.data as { id: string; status: string } & Record<string, unknown>;
    },
    read: (workflowId: string, versionId: string) =>
      call('GET', `/workflow-versions/${workflowId}/version/${versionId}`),
    publish: (workflowId: string, versionId: string) =>
      call('POST', `/workflow-versions/${workflowId}/version/${versionId}/publish`),
    archive: (workflowId: string, versionId: string) =>
      call('POST', `/workflow-versions/${workflowId}/version/${versionId}/archive`),
    history: (workflowId: string, query = '') =>
      call('GET', `/workflow-versions/${workflowId}/history${query}`),
    stats: (workflowId: string) => call('GET', `/workflow-versions/${workflowId}/stats`),
    rollback: (workflowId: string, json: Record<string, unknown>) =>
      call('POST', `/workflow-versions/${workflowId}/rollback`, json),
    fork: (workflowId: string, json: Record<string, unknown>) =>
      call('POST', `/workflow-versions/${workflowId}/fork`, json),
    diff: (workflowId: string, from: string, to: string) =>
      call('GET', `/workflow-versions/${workflowId}/diff?from_version=${from}&to_version=${to}`),
  };
}

/** The Redis keys of one workflow's version space (data/version-store.ts). */
export function versionKeys(workflowId: string): string[] {
  return ['meta', 'body', 'all', 'draft', 'published', 'archived', 'seq'].map(
    (name) => `workflows:versions:{${workflowId}}:${name}`,
  );
}

/**
 * A second replica of the workflows service (same database, same Redis, its own process state)
 * behind its own gateway: what the HPA's second pod is.
 */
export async function startReplica(harness: WorkflowsHarness) {
  const common = commonEnv();
  const workflows = await startWorkflows(harness.config, testLogger, 'test-replica');
  const grpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: workflows.services,
    trust: serviceTrust('workflows', harness.config),
  });
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: harness.identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test-replica',
  );
  const http = await listen(gateway.app);
  return {
    request: requester(http.baseUrl),
    async stop() {
      await http.close();
      await gateway.close();
      await grpc.shutdown(1_000);
      await workflows.stop();
    },
  };
}
