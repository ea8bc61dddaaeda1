import { SessionRegistry, TokenService } from '@platform/auth';
import { SecretBox } from '@platform/crypto';
import { openDatabase, type Pool } from '@platform/db';
import type { ServiceRegistration } from '@platform/grpc';
import { createKafka, createProducer, type KafkaClient, type Producer } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { closeRedis, createRedis, type Redis } from '@platform/redis';
import type { IdentityConfig } from './config.js';
import { SettingsStore } from './domain/settings/settings-store.js';
import { identityGrpc } from './grpc/identity-grpc.js';

const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

/** What every identity use case may depend on, built once at start. */
export interface IdentityDependencies {
  config: IdentityConfig;
  logger: Logger;
  pool: Pool;
  redis: Redis;
  kafka: KafkaClient;
  producer: Producer;
  tokens: TokenService;
  sessions: SessionRegistry;
  secrets: SecretBox;
  settings: SettingsStore;
  version: string;
}

export interface StartedIdentity {
  dependencies: IdentityDependencies;
  services: ServiceRegistration[];
  stop(): Promise<void>;
}

/**
 * The identity service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database. Each area registers its gRPC service here.
 */
export async function startIdentity(
  config: IdentityConfig,
  logger: Logger,
  version: string,
): Promise<StartedIdentity> {
  const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, { logger, applicationName: 'identity' });
  const redis = createRedis(config.REDIS_URL, { logger, connectionName: 'identity' });
  const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'identity', logger });
  const producer = createProducer(kafka);
  const secrets = new SecretBox(config.SECRET_KEY);
  const dependencies: IdentityDependencies = {
    config,
    logger,
    pool,
    redis,
    kafka,
    producer,
    tokens: new TokenService(config.SECRET_KEY),
    sessions: new SessionRegistry(redis),
    secrets,
    settings: new SettingsStore(pool, secrets),
    version,
  };
  const services: ServiceRegistration[] = [identityGrpc(dependencies)];
  return {
    dependencies,
    services,
    async stop() {
      await kafka.disconnect();
      await closeRedis(redis);
      await pool.end();
    },
  };
}
