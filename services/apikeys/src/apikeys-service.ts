import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import { serviceTopics } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { OutboxRelay } from '@platform/outbox';
import { connectInfrastructure, DailyTask, startWhenKafkaIsReachable } from '@platform/runtime';
import type { ApiKeysConfig } from './config.js';
import type { ApiKeysDependencies } from './deps.js';
import { identityUserDirectory } from './adapters/identity-users.js';
import { workflowsNameDirectory } from './adapters/workflow-names.js';
import { checkApiKeyExpiration, EXPIRY_TASK } from './domain/expiry/check-api-key-expiration.js';
import { KeyRevisions } from './domain/keys/key-revisions.js';
import { LastUsedBuffer } from './domain/usage/last-used-buffer.js';
import { startAgentDirectoryConsumer } from './events/agent-directory-consumer.js';
import { apikeysGrpc } from './grpc/apikeys-grpc.js';

/** Its Postgres migrations (SQL is not compiled: src/, beside dist/ in the image). */
export const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

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
  now: () => Date = () => new Date(),
): Promise<StartedApiKeys> {
  const { close: closeInfrastructure, ...connections } = await connectInfrastructure(
    config,
    logger,
    'apikeys',
    MIGRATIONS,
    // The topics it produces to or consumes: checked at start with KAFKA_TOPIC_MODE=verify.
    serviceTopics('apikeys'),
  );
  const { pool, redis, kafka, producer } = connections;
  const trust = createOutgoingTrust({
    service: 'apikeys',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const dependencies: ApiKeysDependencies = {
    config,
    logger,
    ...connections,
    users: identityUserDirectory(config.IDENTITY_GRPC_ADDR, trust.to('identity')),
    workflows: workflowsNameDirectory(config.WORKFLOWS_GRPC_ADDR, trust.to('workflows')),
    revisions: new KeyRevisions(redis, config.REDIS_KEY_PREFIX),
    lastUsed: new LastUsedBuffer(redis, pool, logger, config.REDIS_KEY_PREFIX),
    now,
    version,
  };
  // Keeps agent names and icons for key views (stopped by kafka.disconnect()). Started in the
  // background, retried while Kafka is unreachable, so the service serves meanwhile.
  let directoryReady: () => void = () => undefined;
  const agentDirectoryReady = new Promise<void>((resolve) => (directoryReady = resolve));
  startWhenKafkaIsReachable(kafka, logger, 'agent-directory consumer', async () => {
    const consumer = await startAgentDirectoryConsumer(dependencies);
    void consumer.ready.then(directoryReady);
  });
  // Publishes the expiry notices stored in the outbox, retrying while Kafka is down.
  const outbox = new OutboxRelay({ pool, producer, logger });
  await outbox.start();
  dependencies.lastUsed.start(config.LAST_USED_FLUSH_MS);
  // Daily at EXPIRY_CHECK_AT (default 09:00) server time, once per cluster (docs/apikeys.md).
  const scheduler = new DailyTask({
    name: EXPIRY_TASK,
    at: config.EXPIRY_CHECK_AT,
    redis,
    lockPrefix: `${config.REDIS_KEY_PREFIX}lock:`,
    logger,
    run: (now) => checkApiKeyExpiration(dependencies, now),
  });
  scheduler.start();
  return {
    dependencies,
    services: [apikeysGrpc(dependencies)],
    agentDirectoryReady,
    async stop() {
      scheduler.stop();
      await outbox.stop();
      await dependencies.lastUsed.stop();
      dependencies.users.close();
      dependencies.workflows.close();
      await closeInfrastructure();
    },
  };
}
