import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { stackEnv, uniqueName } from '@platform/testing';
import { testLogger } from './harness.js';

/** A MongoDB database of its own on the stack's server, for one notifications child process set. */
export function privateMongoUrl(name: string): string {
  return stackEnv.mongoUrl.replace(/\/[^/]*$/, `/${uniqueName(name).replace(/-/g, '_')}`);
}

/**
 * The environment of a BUILT notifications child process on its own topics, groups and Redis keys
 * (`prefix`) and MongoDB database, calling the given identity; deliveries may reach the local test
 * receivers, and a due retry is submitted within half a second.
 */
export function notificationsChildEnv(options: {
  prefix: string;
  mongoUrl: string;
  identityAddress: string;
}): Record<string, string> {
  const { prefix } = options;
  return {
    MONGO_URL: options.mongoUrl,
    IDENTITY_GRPC_ADDR: options.identityAddress,
    QUEUE_TOPIC_PREFIX: prefix,
    EVENTS_TOPIC_PREFIX: prefix,
    NOTIFICATION_EVENTS_GROUP: `${prefix}notification-events`,
    REDIS_KEY_PREFIX: `${prefix}notifications:`,
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    DELIVERY_RECONCILE_INTERVAL_MS: '500',
  };
}

/** The real gateway, in-process, in front of identity and notifications (the other services absent). */
export function gatewayInFrontOf(addresses: { identity: string; notifications: string }): Gateway {
  return buildGateway(
    loadGatewayConfig({
      ...process.env,
      REDIS_URL: stackEnv.redisUrl,
      KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
      TASK_SEAL_KEY: stackEnv.taskSealKey,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: addresses.identity,
      APIKEYS_GRPC_ADDR: '127.0.0.1:1',
      NOTIFICATIONS_GRPC_ADDR: addresses.notifications,
      MODELS_GRPC_ADDR: '127.0.0.1:1',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:1',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:1',
    }),
    testLogger,
    'test',
  );
}
