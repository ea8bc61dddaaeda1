import { buildGateway, loadGatewayConfig, type Gateway } from '@platform/gateway';
import { startGrpcServer, type RunningGrpcServer } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { serviceTrust } from '@platform/runtime';
import {
  listen,
  requester,
  stackEnv,
  startIdentityProcess,
  testClock,
  uniqueName,
  type IdentityProcess,
  type IdentityUser,
  type IdentityUserOptions,
  type Requester,
  type RunningHttp,
  type TestClock,
} from '@platform/testing';
import { loadNotificationsConfig } from '../../src/config.js';
import { startNotifications, type StartedNotifications } from '../../src/notifications-service.js';

export const testLogger = createLogger('notifications-test', process.env.TEST_LOG_LEVEL ?? 'silent');

export interface NotificationsHarness {
  notifications: StartedNotifications;
  identity: IdentityProcess;
  gateway: Gateway;
  /** Unique per harness: `<prefix>platform.notification-events`, `<prefix>queue.default`. */
  topicPrefix: string;
  clock: TestClock;
  request: Requester;
  createUser(options?: IdentityUserOptions): Promise<IdentityUser>;
  /** A team created through the gateway by `owner` (OWNER), with `members` added as MEMBER. */
  createTeam(
    owner: IdentityUser,
    members?: { user: IdentityUser; role?: 'ADMIN' | 'MEMBER' }[],
  ): Promise<string>;
  stop(): Promise<void>;
}

function mongoUrlFor(database: string): string {
  const url = new URL(stackEnv.mongoUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The real notifications service in-process on a fresh MongoDB database (FerretDB locally), with
 * its own Kafka topic prefix, consumer group and Redis key prefix; the built identity service as a
 * child process; the real gateway in front of both.
 */
export async function startNotificationsHarness(
  env: Record<string, string> = {},
): Promise<NotificationsHarness> {
  const identity = await startIdentityProcess();
  const topicPrefix = `${uniqueName('nt')}.`;
  const database = uniqueName('notif_t').replace(/-/g, '_');
  const common = {
    ...process.env,
    REDIS_URL: stackEnv.redisUrl,
    KAFKA_BROKERS: stackEnv.kafkaBrokers.join(','),
    TASK_SEAL_KEY: stackEnv.taskSealKey,
    ...stackEnv.serviceTrustEnv('notifications'),
    GRPC_PORT: '50099', // unused: the harness binds its own server on a free port
  };
  const clock = testClock();
  const config = loadNotificationsConfig({
    ...common,
    MONGO_URL: mongoUrlFor(database),
    IDENTITY_GRPC_ADDR: identity.address,
    REDIS_KEY_PREFIX: `${topicPrefix}notifications:`,
    QUEUE_TOPIC_PREFIX: topicPrefix,
    EVENTS_TOPIC_PREFIX: topicPrefix,
    NOTIFICATION_EVENTS_GROUP: `${topicPrefix}notification-events`,
    ...env,
  });
  const notifications = await startNotifications(config, testLogger, 'test', { now: clock.date });
  const server: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    services: notifications.services,
    trust: serviceTrust('notifications', config),
  });
  const gateway = buildGateway(
    loadGatewayConfig({
      ...common,
      ...stackEnv.serviceTrustEnv('gateway'),
      IDENTITY_GRPC_ADDR: identity.address,
      APIKEYS_GRPC_ADDR: '127.0.0.1:50062',
      NOTIFICATIONS_GRPC_ADDR: `127.0.0.1:${server.port}`,
      MODELS_GRPC_ADDR: '127.0.0.1:50064',
      WORKFLOWS_GRPC_ADDR: '127.0.0.1:50065',
      OBSERVABILITY_GRPC_ADDR: '127.0.0.1:50066',
    }),
    testLogger,
    'test',
  );
  const http: RunningHttp = await listen(gateway.app);
  const request = requester(http.baseUrl);

  return {
    notifications,
    identity,
    gateway,
    topicPrefix,
    clock,
    request,
    createUser: (options) => identity.createUser(options),
    async createTeam(owner, members = []) {
      const created = await request('POST', '/teams', {
        token: owner.token,
        json: { name: uniqueName('team') },
      });
      if (created.body.code !== 0) throw new Error(`team create failed: ${JSON.stringify(created.body)}`);
      const teamId = created.body.data.id as string;
      for (const member of members) {
        const added = await request('POST', `/teams/${teamId}/members`, {
          token: owner.token,
          json: { user_id: member.user.id, role: member.role ?? 'MEMBER' },
        });
        if (added.body.code !== 0) throw new Error(`member add failed: ${JSON.stringify(added.body)}`);
      }
      return teamId;
    },
    async stop() {
      await http.close();
      await gateway.close();
      await server.shutdown(1_000);
      await notifications.dependencies.connection.dropDatabase().catch(() => undefined);
      await notifications.stop();
      await identity.stop();
    },
  };
}
