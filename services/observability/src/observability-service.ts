import { runsWorkers, servesApi } from '@platform/config';
import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import { serviceTopics, Topics, type ConsumerHandle } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { connectInfrastructure, startWhenKafkaIsReachable } from '@platform/runtime';
import { modelsQuotaUsage } from './adapters/quota-usage.js';
import { workflowsNameReader } from './adapters/workflow-names.js';
import type { ObservabilityConfig } from './config.js';
import { PayloadCache } from './data/payload-cache.js';
import type { ObservabilityDependencies } from './deps.js';
import { AggregateGate } from './data/aggregate-gate.js';
import { exportConsumerLag, lagGroups } from './domain/system/consumer-lag-gauges.js';
import { startAgentDirectoryConsumer } from './events/agent-directory-consumer.js';
import { startTelemetryConsumer } from './events/telemetry-consumer.js';
import { startWindowAdvancer } from './data/window-advance.js';
import { analyticsGrpc } from './grpc/analytics-grpc.js';
import { observabilityGrpc } from './grpc/observability-grpc.js';
import { systemMonitorsGrpc } from './system-area.js';

/** Its Postgres migrations (SQL is not compiled: src/, beside dist/ in the image). */
export const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

export interface StartedObservability {
  dependencies: ObservabilityDependencies;
  services: ServiceRegistration[];
  /**
   * Resolves once the fact consumers and the agent-directory consumer joined their groups; at once
   * on PROCESS_ROLE=api, which runs no consumer.
   */
  consumersReady: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The observability service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database. System monitors (health, trend, workers, slow
 * queries) register their handlers next to the analytics ones below.
 */
export async function startObservability(
  config: ObservabilityConfig,
  logger: Logger,
  version: string,
  now: () => Date = () => new Date(),
): Promise<StartedObservability> {
  // Validated by the config schema too; checked here so a bad bound never reaches a query.
  const gate = new AggregateGate(config.DB_AGGREGATE_CONCURRENCY);
  const { close: closeInfrastructure, ...connections } = await connectInfrastructure(
    config,
    logger,
    'observability',
    MIGRATIONS,
    // The topics it produces to or consumes: checked at start with KAFKA_TOPIC_MODE=verify.
    serviceTopics('observability', {
      topics: {
        [Topics.AGENT_ROUNDS]: config.TELEMETRY_TOPIC_PREFIX,
        [Topics.WORKFLOW_RUNS]: config.TELEMETRY_TOPIC_PREFIX,
      },
    }),
  );
  const trust = createOutgoingTrust({
    service: 'observability',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const dependencies: ObservabilityDependencies = {
    config,
    logger,
    ...connections,
    gate,
    cache: new PayloadCache(connections.redis, config.REDIS_KEY_PREFIX, config.CACHE_TTL_SECONDS),
    workflowNames: workflowsNameReader(config.WORKFLOWS_GRPC_ADDR, trust.to('workflows'), logger),
    quotaUsage: modelsQuotaUsage(config.MODELS_GRPC_ADDR, trust.to('models'), logger),
    now,
    version,
  };
  const role = config.PROCESS_ROLE;
  const { consumersReady, advancer } = runsWorkers(role)
    ? startWorkers(dependencies)
    : { consumersReady: Promise.resolve(), advancer: undefined };
  // The API's system monitors read the consumer lag: exported where the API is served.
  const stopLagGauges = servesApi(role)
    ? exportConsumerLag({
        kafka: connections.kafka,
        logger,
        groups: lagGroups(config),
        cacheMs: config.CONSUMER_LAG_CACHE_MS,
      })
    : () => undefined;
  return {
    dependencies,
    // PROCESS_ROLE=worker serves only grpc.health.v1.
    services: servesApi(role)
      ? [observabilityGrpc(dependencies), analyticsGrpc(dependencies), systemMonitorsGrpc(dependencies)]
      : [],
    consumersReady,
    async stop() {
      stopLagGauges();
      advancer?.stop();
      dependencies.workflowNames.close();
      dependencies.quotaUsage.close();
      await closeInfrastructure();
    },
  };
}

/**
 * What PROCESS_ROLE `all` and `worker` run: the fact (telemetry) consumer and the agent-directory
 * consumer, in the background and retried while Kafka is unreachable (stopped by
 * kafka.disconnect()), and the sliding-window advancer that goes with the facts they write (safe
 * on every replica).
 */
function startWorkers(dependencies: ObservabilityDependencies) {
  const { logger, kafka, pool, config, now } = dependencies;
  const handles: Promise<ConsumerHandle>[] = [];
  let consumersStarted: () => void = () => undefined;
  const consumersReady = new Promise<void>((resolve) => (consumersStarted = resolve));
  startWhenKafkaIsReachable(kafka, logger, 'telemetry consumers', async () => {
    handles.push(startTelemetryConsumer(dependencies), startAgentDirectoryConsumer(dependencies));
    const running = await Promise.all(handles);
    await Promise.all(running.map((handle) => handle.ready));
    consumersStarted();
  });
  const advancer = startWindowAdvancer({ pool, logger, intervalMs: config.WINDOW_ADVANCE_INTERVAL_MS, now });
  return { consumersReady, advancer };
}
