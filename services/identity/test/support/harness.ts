import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { serviceTrust } from '@platform/runtime';
import {
  freshDatabase,
  listen,
  requester,
  startServiceProcess,
  stackEnv,
  uniqueName,
  type HttpResult,
  type Requester,
  type RequestOptions,
  type RunningHttp,
  type ServiceProcess,
} from '@platform/testing';
import { loadIdentityConfig } from '../../src/config.js';
import { startIdentity, type StartedIdentity } from '../../src/identity-service.js';

export type { HttpResult, RequestOptions };

export interface IdentityHarness {
  baseUrl: string;
  /** identity's gRPC address (calls there need credentials: docs/security.md). */
  grpcAddress: string;
  identity: StartedIdentity;
  gateway: Gateway;
  request: Requester;
  /** Changes site settings through the real store (validated, secrets encrypted). */
  setSettings(changes: Record<string, unknown>): Promise<void>;
  /**
   * Another gateway replica (own principal cache, production defaults) in front of the same
   * identity; stopped with the harness.
   */
  startGatewayReplica(): Promise<GatewayReplica>;
  /**
   * Starts the notifications service (its build output) as this identity's mail worker: the
   * `default` queue's one worker fleet, on this harness's queue topics, reading SMTP settings from
   * this identity. Idempotent; stopped with the harness.
   */
  startMailWorker(): Promise<void>;
  stop(): Promise<void>;
}

export interface GatewayReplica {
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
}

const logger = createLogger('identity-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/**
 * The real identity service on its own fresh database (migrated), served over gRPC on a free port,
 * behind the real gateway (route table, JWT, Redis revocation) on a free HTTP port. Other services
 * are reached at the addresses in deploy/local/env.sh.
 */
export async function startIdentityHarness(env: Record<string, string> = {}): Promise<IdentityHarness> {
  const database = await freshDatabase('identity_t');
  const identityConfig = loadIdentityConfig({
    ...process.env,
    DATABASE_URL: database.url,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    SECRET_KEY: stackEnv.secretKey,
    TASK_SEAL_KEY: stackEnv.taskSealKey,
    ...stackEnv.serviceTrustEnv('identity'),
    GRPC_PORT: '50099', // unused: the harness binds its own server on a free port
    // Own work-queue topics and worker group (`<prefix>queue.default`), so the local identity
    // service (deploy/local/services.sh) never consumes this file's mails and reruns start empty.
    QUEUE_TOPIC_PREFIX: `${uniqueName('t')}.`,
    ...env,
  });
  const identity = await startIdentity(identityConfig, logger, 'test');
  const grpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: identity.services,
    trust: serviceTrust('identity', identityConfig),
  });
  const gatewayConfig = loadGatewayConfig({
    ...process.env,
    SECRET_KEY: stackEnv.secretKey,
    ...stackEnv.serviceTrustEnv('gateway'),
    REDIS_URL: stackEnv.redisUrl,
    IDENTITY_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
    APIKEYS_GRPC_ADDR: process.env.APIKEYS_GRPC_ADDR ?? '127.0.0.1:50062',
    NOTIFICATIONS_GRPC_ADDR: process.env.NOTIFICATIONS_GRPC_ADDR ?? '127.0.0.1:50063',
    MODELS_GRPC_ADDR: process.env.MODELS_GRPC_ADDR ?? '127.0.0.1:50064',
    WORKFLOWS_GRPC_ADDR: process.env.WORKFLOWS_GRPC_ADDR ?? '127.0.0.1:50065',
    OBSERVABILITY_GRPC_ADDR: process.env.OBSERVABILITY_GRPC_ADDR ?? '127.0.0.1:50066',
  });
  const gateway = buildGateway(gatewayConfig, logger, 'test');
  const http: RunningHttp = await listen(gateway.app);

  const replicas: { gateway: Gateway; http: RunningHttp }[] = [];
  let mailWorker: Promise<ServiceProcess> | undefined;

  return {
    baseUrl: http.baseUrl,
    grpcAddress: `127.0.0.1:${grpc.port}`,
    identity,
    gateway,
    request: requester(http.baseUrl),
    async setSettings(changes) {
      await identity.dependencies.settings.update(changes);
    },
    async startGatewayReplica() {
      const replica = buildGateway(gatewayConfig, logger, 'test');
      const replicaHttp = await listen(replica.app);
      replicas.push({ gateway: replica, http: replicaHttp });
      return { request: requester(replicaHttp.baseUrl) };
    },
    async startMailWorker() {
      mailWorker ??= startServiceProcess('notifications', {
        env: {
          // One shared database for these workers: mail tasks never write to it.
          MONGO_URL: stackEnv.mongoUrl.replace(/\/[^/]*$/, '/identity_mail_worker'),
          IDENTITY_GRPC_ADDR: `127.0.0.1:${grpc.port}`,
          QUEUE_TOPIC_PREFIX: identityConfig.QUEUE_TOPIC_PREFIX,
          // Its automatic-notification consumer on this test's own (empty) topic and group, so it
          // never takes events from the shared stack's notifications service.
          EVENTS_TOPIC_PREFIX: `${identityConfig.QUEUE_TOPIC_PREFIX}mail-worker.`,
          NOTIFICATION_EVENTS_GROUP: `${identityConfig.QUEUE_TOPIC_PREFIX}mail-worker.notification-events`,
          KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
          DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
        },
      });
      await mailWorker;
    },
    async stop() {
      if (mailWorker) await (await mailWorker.catch(() => undefined))?.stop();
      for (const replica of replicas) {
        await replica.http.close();
        await replica.gateway.close();
      }
      await http.close();
      await gateway.close();
      await grpc.shutdown(1_000);
      await identity.stop();
      await database.drop();
    },
  };
}
