import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { closeMongo, connectMongo } from '@platform/mongo';
import {
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  startJaeger,
  startServiceProcess,
  uniqueName,
  type IdentityProcess,
  type Jaeger,
  type Requester,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { initTracing, type Tracing } from '@platform/telemetry';
import { testLogger } from './harness.js';

/**
 * The notifications service as it runs in production — its BUILT main.js as a child process,
 * exporting spans over OTLP (every trace sampled) to a private Jaeger and serving `/metrics` — with
 * identity (also built) and the real gateway in-process, which traces into the same Jaeger so a
 * request's trace starts at the edge.
 */
export interface ProcessStack {
  jaeger: Jaeger;
  identity: IdentityProcess;
  notifications: ServiceProcess;
  /** `<prefix>platform.notification-events` etc.: this stack's own topics and groups. */
  topicPrefix: string;
  request: Requester;
  stop(): Promise<void>;
}

export async function startProcessStack(): Promise<ProcessStack> {
  const jaeger = await startJaeger();
  const tracing: Tracing = initTracing({
    service: 'gateway',
    endpoint: jaeger.otlpEndpoint,
    sampleRatio: 1,
    logger: testLogger,
  });
  const identity = await startIdentityProcess();
  const topicPrefix = `${uniqueName('ntel')}.`;
  const mongoUrl = stackEnv.mongoUrl.replace(/\/[^/]*$/, `/${uniqueName('notif_tel').replace(/-/g, '_')}`);
  const notifications = await startServiceProcess('notifications', {
    env: {
      MONGO_URL: mongoUrl,
      IDENTITY_GRPC_ADDR: identity.address,
      QUEUE_TOPIC_PREFIX: topicPrefix,
      EVENTS_TOPIC_PREFIX: topicPrefix,
      NOTIFICATION_EVENTS_GROUP: `${topicPrefix}notification-events`,
      REDIS_KEY_PREFIX: `${topicPrefix}notifications:`,
      DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
      DELIVERY_HTTP_TIMEOUT_MS: '3000',
      // A due retry is submitted within half a second (the retry test waits for one).
      DELIVERY_RECONCILE_INTERVAL_MS: '500',
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      OTEL_TRACES_SAMPLER_ARG: '1',
    },
  });
  const gateway: Gateway = buildGateway(
    loadGatewayConfig({
      ...process.env,
      REDIS_URL: stackEnv.redisUrl,
      KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
      TASK_SEAL_KEY: stackEnv.taskSealKey,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:1',
      NOTIFICATIONS_GRPC_ADDR: notifications.address,
      MODELS_GRPC_ADDR: '127.0.0.1:1',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:1',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  return {
    jaeger,
    identity,
    notifications,
    topicPrefix,
    request: requester(http.baseUrl),
    async stop() {
      await http.close();
      await gateway.close();
      await notifications.stop();
      await identity.stop();
      await tracing.shutdown();
      await jaeger.stop();
      const connection = await connectMongo(mongoUrl, { logger: testLogger });
      await connection.dropDatabase().catch(() => undefined);
      await closeMongo(connection);
    },
  };
}
