import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createPool, withDatabase } from '@platform/db';
import { createLogger } from '@platform/logger';
import { closeRedis, createRedis } from '@platform/redis';
import { connectInfrastructure, serviceTrust, type Infrastructure } from '@platform/runtime';
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
import { observabilityGrpc } from '../../src/grpc/observability-grpc.js';
import { systemMonitorsGrpc } from '../../src/system-monitors.js';

export const testLogger = createLogger('observability-system-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export interface SystemHarness {
  config: ObservabilityConfig;
  infrastructure: Omit<Infrastructure, 'close'>;
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
 * Observability's system monitors in-process on a fresh database (with `pg_stat_statements`
 * created, as the operator does), own Redis keys and queue-topic prefix; the real identity
 * service (built, child process) and the real gateway in front.
 */
export async function startSystemHarness(
  env: Record<string, string> = {},
  /** The monitors get a Postgres pool and a Redis client on closed ports (nothing listens on 1). */
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
    PRINCIPAL_SIGNING_PUBLIC_KEY: stackEnv.principalSigningPublicKey,
    SERVICE_AUTH_KEY: stackEnv.serviceAuthKey,
    GRPC_PORT: '50099',
  };
  const config = loadObservabilityConfig({
    ...common,
    DATABASE_URL: database.url,
    REDIS_KEY_PREFIX: `${uniqueName('obs-sys')}:`,
    QUEUE_TOPIC_PREFIX: `${uniqueName('obs-sys')}.`,
    WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
    MODELS_GRPC_ADDR: '127.0.0.1:50064',
    ...env,
  });
  const { close, ...infrastructure } = await connectInfrastructure(
    config,
    testLogger,
    'observability',
    new URL('../../src/data/migrations', import.meta.url),
  );
  const unreachable = {
    pool: createPool('postgres://nobody:nothing@127.0.0.1:1/none', { connectionTimeoutMs: 1000 }),
    redis: createRedis('redis://127.0.0.1:1/0', { logger: testLogger, maxRetriesPerRequest: 1, connectTimeoutMs: 500 }),
  };
  const server: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: [
      observabilityGrpc({ pool: infrastructure.pool, version: 'test' }),
      systemMonitorsGrpc(config, {
        ...infrastructure,
        ...(unreachableStores ? unreachable : {}),
        logger: testLogger,
      }),
    ],
    trust: serviceTrust('observability', config),
  });
  const gateway: Gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      PRINCIPAL_SIGNING_PRIVATE_KEY: stackEnv.principalSigningPrivateKey,
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: `127.0.0.1:${server.port}`,
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  return {
    config,
    infrastructure,
    database,
    identity,
    request: requester(http.baseUrl),
    createUser: (options) => identity.createUser(options),
    async stop() {
      await http.close();
      await gateway.close();
      await server.shutdown(1_000);
      const keys = await infrastructure.redis.keys(`${config.REDIS_KEY_PREFIX}*`);
      if (keys.length) await infrastructure.redis.del(...keys);
      await close();
      await unreachable.pool.end();
      await closeRedis(unreachable.redis);
      await database.drop();
      await identity.stop();
    },
  };
}
