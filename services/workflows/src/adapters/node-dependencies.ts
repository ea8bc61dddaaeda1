import { createOutgoingTrust } from '@platform/grpc';
import type { KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import type { Resolver } from '@platform/outbound-http';
import { createSettingsClient } from '@platform/settings-client';
import type { WorkflowsConfig } from '../config.js';
import type { NodeDependencies } from '../domain/runs/nodes/node-ports.js';
import { modelsGateway } from './models-client.js';

export const WORKFLOW_HTTP_ALLOWLIST = 'workflow_http_allowlist';
export const MODEL_ENDPOINT_ALLOWLIST = 'model_endpoint_allowlist';

export interface NodeRuntime {
  deps: NodeDependencies;
  /** Follows `settings.changed` so an allowlist change applies before the TTL passes. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

function origins(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * What the node set needs, over the real services: identity's site settings (the two allowlists,
 * read through the shared settings client: cached `ttlMs`, dropped on `settings.changed`) and
 * models over gRPC. When identity cannot answer, the allowlist read fails and the node with it
 * (no stale fallback).
 */
export function createNodeRuntime(
  config: Pick<WorkflowsConfig, 'IDENTITY_GRPC_ADDR' | 'MODELS_GRPC_ADDR' | 'SERVICE_SIGNING_PRIVATE_KEY'>,
  logger: Logger,
  options: { kafka?: KafkaClient; ttlMs?: number; resolve?: Resolver } = {},
): NodeRuntime {
  const trust = createOutgoingTrust({
    service: 'workflows',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const settings = createSettingsClient({
    address: config.IDENTITY_GRPC_ADDR,
    trust,
    logger,
    service: 'workflows',
    keys: [WORKFLOW_HTTP_ALLOWLIST, MODEL_ENDPOINT_ALLOWLIST],
    ...(options.kafka ? { kafka: options.kafka } : {}),
    ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
  });
  const models = modelsGateway(config.MODELS_GRPC_ADDR, trust.to('models'));
  return {
    deps: {
      httpAllowlist: async () => origins((await settings.get())[WORKFLOW_HTTP_ALLOWLIST]),
      modelAllowlist: async () => origins((await settings.get())[MODEL_ENDPOINT_ALLOWLIST]),
      models,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
    start: () => settings.start(),
    async stop() {
      models.close();
      await settings.stop();
    },
  };
}
