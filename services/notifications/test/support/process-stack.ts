import type { Gateway } from '@platform/gateway';
import { closeMongo, connectMongo } from '@platform/mongo';
import {
  listen,
  requester,
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
import { gatewayInFrontOf, notificationsChildEnv, privateMongoUrl } from './child-process-env.js';
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
  const mongoUrl = privateMongoUrl('notif_tel');
  const notifications = await startServiceProcess('notifications', {
    env: {
      ...notificationsChildEnv({ prefix: topicPrefix, mongoUrl, identityAddress: identity.address }),
      DELIVERY_HTTP_TIMEOUT_MS: '3000',
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      OTEL_TRACES_SAMPLER_ARG: '1',
    },
  });
  const gateway: Gateway = gatewayInFrontOf({
    identity: identity.address,
    notifications: notifications.address,
  });
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
