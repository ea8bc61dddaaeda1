import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createProducer, Topics, type Producer } from '@platform/kafka';
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
  type ServiceProcess,
  type IdentityProcess,
  type IdentityUser,
  type IdentityUserOptions,
  type Requester,
  type RunningHttp,
} from '@platform/testing';
import { loadObservabilityConfig } from '../../src/config.js';
import { telemetryTopics } from '../../src/events/telemetry-consumer.js';
import { startObservability, type StartedObservability } from '../../src/observability-service.js';

export const testLogger = createLogger('observability-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export interface ObservabilityHarness {
  observability: StartedObservability;
  identity: IdentityProcess;
  /** The built workflows service (names for workflow ids), as a child process. */
  workflows: ServiceProcess;
  /** The built models service (quota counters for /tokens), as a child process. */
  models: ServiceProcess;
  gateway: Gateway;
  request: Requester;
  /** Publishes on this harness's telemetry topics (a unique prefix of the real topic names). */
  publishRounds(rounds: object[]): Promise<void>;
  publishRuns(runs: object[]): Promise<void>;
  /** Publishes on the real `platform.agent-directory` (entries carry unique agent ids). */
  publishDirectory(entries: object[]): Promise<void>;
  createUser(options?: IdentityUserOptions): Promise<IdentityUser>;
  stop(): Promise<void>;
}

/**
 * The real observability service in-process on a fresh database, behind the real gateway, with
 * identity as a child process. Telemetry topics get a unique prefix and the consumers unique
 * groups, so only this harness's facts are counted; Redis keys get a unique prefix.
 */
export async function startObservabilityHarness(
  env: Record<string, string> = {},
): Promise<ObservabilityHarness> {
  const identity = await startIdentityProcess();
  const workflows = await startServiceProcess('workflows', { env: { IDENTITY_GRPC_ADDR: identity.address } });
  // Its own models (quota counters for /tokens), on a fresh database.
  const models = await startServiceProcess('models', {
    env: {
      IDENTITY_GRPC_ADDR: identity.address,
    },
  });
  const database = await freshDatabase('observability_t');
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('observability'),
    GRPC_PORT: '50099', // unused: the harness binds its own server on a free port
  };
  const prefix = `${uniqueName('obs-t')}.`;
  const config = loadObservabilityConfig({
    ...common,
    DATABASE_URL: database.url,
    WORKFLOWS_GRPC_ADDR: workflows.address,
    MODELS_GRPC_ADDR: models.address,
    REDIS_KEY_PREFIX: `${prefix}`.replace(/\.$/, ':'),
    TELEMETRY_TOPIC_PREFIX: prefix,
    TELEMETRY_GROUP: uniqueName('test.observability.telemetry'),
    AGENT_DIRECTORY_GROUP: uniqueName('test.observability.agent-directory'),
    ...env,
  });
  const observability = await startObservability(config, testLogger, 'test');
  await observability.consumersReady;
  const grpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: observability.services,
    trust: serviceTrust('observability', config),
  });
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: '127.0.0.1:50063',
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  const producer: Producer = createProducer(observability.dependencies.kafka);
  const topics = telemetryTopics(prefix);
  const publish = (topic: string, values: object[]) =>
    producer.publishRaw(
      topic,
      values.map((value) => ({
        key: (value as { id?: string }).id ?? null,
        value: JSON.stringify(value),
        headers: {},
      })),
    );
  return {
    observability,
    identity,
    workflows,
    models,
    gateway,
    request: requester(http.baseUrl),
    publishRounds: (rounds) => publish(topics.rounds, rounds),
    publishRuns: (runs) => publish(topics.runs, runs),
    publishDirectory: (entries) => publish(Topics.AGENT_DIRECTORY, entries),
    createUser: (options) => identity.createUser(options),
    async stop() {
      await http.close();
      await gateway.close();
      await grpc.shutdown(1_000);
      await observability.stop();
      await database.drop();
      await workflows.stop();
      await models.stop();
      await identity.stop();
    },
  };
}
