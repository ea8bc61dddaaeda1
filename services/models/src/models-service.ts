import { SecretBox } from '@platform/crypto';
import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import type { Resolver } from '@platform/outbound-http';
import { serviceTopics, type KafkaClient } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { connectInfrastructure } from '@platform/runtime';
import type { Pool } from '@platform/db';
import type { ModelsConfig } from './config.js';
import type { ModelsDependencies } from './deps.js';
import { identityEndpointAllowlist } from './adapters/endpoint-allowlist.js';
import { buildGrantsArea, type GrantsArea } from './grants-area.js';
import { modelsGrpc } from './grpc/models-grpc.js';

/** Its Postgres migrations (SQL is not compiled: src/, beside dist/ in the image). */
export const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);
/** The HKDF purpose of the key that seals model API keys (docs/models.md). */
export const MODEL_KEYS_PURPOSE = 'model-api-keys';

export interface StartedModels {
  pool: Pool;
  kafka: KafkaClient;
  grants: GrantsArea;
  dependencies: ModelsDependencies;
  services: ServiceRegistration[];
  stop(): Promise<void>;
}

/**
 * The models service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database.
 */
export async function startModels(
  config: ModelsConfig,
  logger: Logger,
  version: string,
  now: () => Date = () => new Date(),
  options: { resolve?: Resolver } = {},
): Promise<StartedModels> {
  const {
    close: closeInfrastructure,
    pool,
    kafka,
    producer,
  } = await connectInfrastructure(config, logger, 'models', MIGRATIONS, serviceTopics('models'));
  // One outgoing identity for every client: models signs its service tokens with its own key only.
  const trust = createOutgoingTrust({
    service: 'models',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const dependencies: ModelsDependencies = {
    config,
    logger,
    pool,
    // Its own HKDF purpose: a model key never decrypts under identity's at-rest key, nor the reverse.
    secrets: new SecretBox(config.SECRET_KEY, MODEL_KEYS_PURPOSE),
    allowlist: identityEndpointAllowlist(config.IDENTITY_GRPC_ADDR, trust, logger),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    version,
  };
  const grants = buildGrantsArea({
    pool,
    producer,
    logger,
    identityAddress: config.IDENTITY_GRPC_ADDR,
    trust,
    usageKeyRetentionDays: config.USAGE_KEY_RETENTION_DAYS,
    now,
  });
  await grants.start();
  return {
    pool,
    kafka,
    grants,
    dependencies,
    services: [modelsGrpc(dependencies), ...grants.services],
    async stop() {
      await grants.stop();
      await dependencies.allowlist.close();
      await closeInfrastructure();
    },
  };
}
