import type { ServiceRegistration } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { connectInfrastructure } from '@platform/runtime';
import type { ApiKeysConfig } from './config.js';
import type { ApiKeysDependencies } from './deps.js';
import { identityUserDirectory } from './adapters/identity-users.js';
import { ExpiryScheduler } from './domain/expiry/expiry-scheduler.js';
import { KeyRevisions } from './domain/keys/key-revisions.js';
import { LastUsedBuffer } from './domain/usage/last-used-buffer.js';
import { startAgentDirectoryConsumer } from './events/agent-directory-consumer.js';
import { apikeysGrpc } from './grpc/apikeys-grpc.js';

const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

export interface StartedApiKeys {
  dependencies: ApiKeysDependencies;
  services: ServiceRegistration[];
  /** Resolves once the agent-directory consumer joined its group (tests wait for it). */
  agentDirectoryReady: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The apikeys service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database.
 */
export async function startApiKeys(
  config: ApiKeysConfig,
  logger: Logger,
  version: string,
): Promise<StartedApiKeys> {
  const { close: closeInfrastructure, ...connections } = await connectInfrastructure(
    config,
    logger,
    'apikeys',
    MIGRATIONS,
  );
  const { pool, redis } = connections;
  const dependencies: ApiKeysDependencies = {
    config,
    logger,
    ...connections,
    users: identityUserDirectory(config.IDENTITY_GRPC_ADDR),
    revisions: new KeyRevisions(redis, config.REDIS_KEY_PREFIX),
    lastUsed: new LastUsedBuffer(redis, pool, logger, config.REDIS_KEY_PREFIX),
    version,
  };
  // Keeps agent names and icons for key views (stopped by kafka.disconnect()).
  const agentDirectory = await startAgentDirectoryConsumer(dependencies);
  dependencies.lastUsed.start(config.LAST_USED_FLUSH_MS);
  const scheduler = new ExpiryScheduler(dependencies);
  scheduler.start();
  return {
    dependencies,
    services: [apikeysGrpc(dependencies)],
    agentDirectoryReady: agentDirectory.ready,
    async stop() {
      scheduler.stop();
      await dependencies.lastUsed.stop();
      dependencies.users.close();
      await closeInfrastructure();
    },
  };
}
