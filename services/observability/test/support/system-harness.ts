import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createPool, withDatabase } from '@platform/db';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis } from '@platform/redis';
import { serviceTrust } from '@platform/runtime';
import {
  freshDatabase,
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  uniqueName,
  type FreshDatabase,
  type IdentityProcess,
  type IdentityUserOptions,
  type IdentityUser,
  type Requester,
  type RunningHttp,
} from '@platform/testing';
import { loadObservabilityConfig, type ObservabilityConfig } from '../../src/config.js';
import type { ObservabilityDependencies } from '../../src/deps.js';
import { SYSTEM_SERVICE_NAME, systemGrpc } from '../../src/grpc/system-grpc.js';
import { startObservability } from '../../src/observability-service.js';
import { systemMonitorDeps } from '../../src/system-area.js';

export const testLogger = createLogger('observability-system-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export interface SystemHarness {
  config: ObservabilityConfig;
  dependencies: ObservabilityDependencies;
  database: FreshDatabase;
  identity: IdentityProcess;
  request: Requester;
  createUser(options?: IdentityUserOptions): Promise<IdentityUser>;
  stop(): Promise<void>;
}

/** Runs one statement as the stack's superuser in `database` (an operator's step). */
export async function asAdmin(database: string, sql: string): Promise<void> {
  const pool = createPool(withDatabase(stackEnv.postgresAdminUrl, database), { max: 1 });
  try {
    await pool.query(sql);
  } finally {
    await pool.end();
  }
}

/**
 * The real observability service in-process on a fresh database (with `pg_stat_statements`
 * created, as the operator does), own Redis keys, consumer groups and topic prefixes; the real
 * identity service (built, child process) and the real gateway in front.
 */
export async function startSystemHarness(
  env: Record<string, string> = {},
  /** The system monitors get a Postgres pool and a Redis client on a closed port (nothing on 1). */
  unreachableStores = false,
): Promise<SystemHarness> {
  const identity = await startIdentityProcess();
  const database = await freshDatabase('obs_sys');
  await asAdmin(database.name, 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('observability'),
    GRPC_PORT: '50099',
    WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
    MODELS_GRPC_ADDR: '127.0.0.1:50064',
  };
  const config = loadObservabilityConfig({
    ...common,
    DATABASE_URL: database.url,
    REDIS_KEY_PREFIX: `${uniqueName('obs-sys')}:`,
    QUEUE_TOPIC_PREFIX: `${uniqueName('obs-sys')}.`,
    TELEMETRY_TOPIC_PREFIX: `${uniqueName('obs-sys')}.`,
    TELEMETRY_GROUP: uniqueName('test.obs-sys.telemetry'),
    AGENT_DIRECTORY_GROUP: uniqueName('test.obs-sys.agent-directory'),
    ...env,
  });
  const started = await startObservability(config, testLogger, 'test');
  const unreachable = {
    pool: createPool('postgres://nobody:nothing@127.0.0.1:1/none', { connectionTimeoutMs: 1000 }),
    redis: createRedis('redis://127.0.0.1:1/0', {
      logger: testLogger,
      maxRetriesPerRequest: 1,
      connectTimeoutMs: 500,
    }),
  };
  const services = unreachableStores
    ? [
        ...started.services.filter((s) => s.name !== SYSTEM_SERVICE_NAME),
        systemGrpc({ ...systemMonitorDeps(started.dependencies), ...unreachable }),
      ]
    : started.services;
  const server: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services,
    trust: serviceTrust('observability', config),
  });
  const gateway: Gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      OBSERVABILITY_GRPC_ADDR: `127.0.0.1:${server.port}`,
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  return {
    config,
    dependencies: started.dependencies,
    database,
    identity,
    request: requester(http.baseUrl),
    createUser: (options) => identity.createUser(options),
    async stop() {
      await http.close();
      await gateway.close();
      await server.shutdown(1_000);
      const { redis } = started.dependencies;
      const keys = await redis.keys(`${config.REDIS_KEY_PREFIX}*`);
      if (keys.length) await redis.del(...keys);
      await started.stop();
      await unreachable.pool.end();
      await closeRedis(unreachable.redis);
      await database.drop();
      await identity.stop();
    },
  };
}
