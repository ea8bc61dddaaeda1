import { kafkaSecurity, runsWorkers, servesApi } from '@platform/config';
import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import {
  createKafka,
  createProducer,
  ensurePlatformTopicsInBackground,
  serviceTopics,
  TaskQueue,
  Topics,
} from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { closeMongo, connectMongo } from '@platform/mongo';
import { closeRedis, createRedis } from '@platform/redis';
import { requireKafkaTopics, startWhenKafkaIsReachable } from '@platform/runtime';
import { createSettingsClient } from '@platform/settings-client';
import { identityAccess } from './adapters/identity-access.js';
import { identityDirectory } from './adapters/identity-access.js';
import type { NotificationsConfig } from './config.js';
import { BulkEmailQuota } from './data/bulk-email-quota.js';
import { InboxIndex } from './data/inbox-index.js';
import { moveEpochOnReconnect } from './domain/inbox-read-model.js';
import { notificationModels } from './data/models.js';
import type { NotificationsDependencies } from './deps.js';
import { createDelivery, startDeliveryWorkers, type Delivery } from './delivery-area.js';
import { startNotificationEventsConsumer } from './events/notification-events-consumer.js';
import { channelTestsGrpc } from './grpc/channel-tests-grpc.js';
import { notificationsGrpc } from './grpc/notifications-grpc.js';
import { prepareIndexes } from './mongo-indexes.js';

export interface StartedNotifications {
  dependencies: NotificationsDependencies;
  /** The delivery side (deliveries, channels, the `default`-queue worker). */
  delivery: Delivery;
  services: ServiceRegistration[];
  /**
   * Resolves once the automatic-notification consumer joined its group (tests wait for it); at
   * once on PROCESS_ROLE=api, which runs no consumer.
   */
  eventsReady: Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  now?: () => Date;
}

/**
 * The notifications service's composition root, separate from main.ts so tests can start the real
 * service in-process on their own database and topics.
 */
export async function startNotifications(
  config: NotificationsConfig,
  logger: Logger,
  version: string,
  options: StartOptions = {},
): Promise<StartedNotifications> {
  const connection = await connectMongo(config.MONGO_URL, { logger, appName: 'notifications' });
  const models = notificationModels(connection);
  const redis = createRedis(config.REDIS_URL, { logger, connectionName: 'notifications' });
  const kafka = createKafka({
    brokers: config.KAFKA_BROKERS,
    clientId: 'notifications',
    logger,
    ...kafkaSecurity('notifications', config),
    topicMode: config.KAFKA_TOPIC_MODE,
  });
  // KAFKA_TOPIC_MODE=verify: refuse to start (exit 78) when a topic it uses is not provisioned.
  await requireKafkaTopics({
    service: 'notifications',
    kafka: kafka,
    logger,
    config,
    topics: serviceTopics('notifications', {
      queues: config.QUEUE_TOPIC_PREFIX,
      topics: { [Topics.NOTIFICATION_EVENTS]: config.EVENTS_TOPIC_PREFIX },
    }),
  });
  const producer = createProducer(kafka);
  const trust = createOutgoingTrust({
    service: 'notifications',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const toIdentity = trust.to('identity');
  const directory = identityAccess(config.IDENTITY_GRPC_ADDR, toIdentity);
  const now = options.now ?? (() => new Date());
  // The delivery side (src/delivery-area.ts, src/domain/delivery/) reaches the in-app side only through its DeliveryPort.
  // Site settings, cached briefly and dropped on `settings.changed` (packages/settings-client).
  const settings = createSettingsClient({
    address: config.IDENTITY_GRPC_ADDR,
    trust,
    kafka,
    service: 'notifications',
    logger,
  });
  void settings.start();
  const recipients = identityDirectory(config.IDENTITY_GRPC_ADDR, toIdentity);
  const deliveryDeps = {
    connection,
    redis,
    kafka,
    producer,
    logger,
    config,
    settings,
    directory: recipients,
    now: () => now().getTime(),
  };
  const delivery = createDelivery(deliveryDeps);
  await prepareIndexes(connection, config.MIGRATE_ON_START, logger);
  ensurePlatformTopicsInBackground(kafka, logger);
  const dependencies: NotificationsDependencies = {
    config,
    logger,
    connection,
    models,
    redis,
    kafka,
    producer,
    queue: new TaskQueue(producer, { topicPrefix: config.QUEUE_TOPIC_PREFIX }),
    directory,
    bulkEmailQuota: new BulkEmailQuota(redis, config.REDIS_KEY_PREFIX),
    inbox: new InboxIndex(redis, config.REDIS_KEY_PREFIX, connection.name, config.INBOX_INDEX_TTL_MS),
    delivery: delivery.port,
    now,
    version,
  };
  const stopWatchingRedis = moveEpochOnReconnect(dependencies);
  const role = config.PROCESS_ROLE;
  const { eventsReady, workers } = runsWorkers(role)
    ? startWorkers(dependencies, deliveryDeps, delivery)
    : { eventsReady: Promise.resolve(), workers: undefined };
  return {
    dependencies,
    delivery,
    // PROCESS_ROLE=worker serves only grpc.health.v1.
    services: servesApi(role)
      ? [notificationsGrpc(dependencies), channelTestsGrpc(delivery, config.NOTIFICATION_PAGE_WINDOW)]
      : [],
    eventsReady,
    async stop() {
      await workers?.stop();
      await kafka.disconnect();
      directory.close();
      recipients.close();
      await settings.stop();
      stopWatchingRedis();
      await closeRedis(redis);
      await closeMongo(connection);
    },
  };
}

/**
 * What PROCESS_ROLE `all` and `worker` run: the automatic-notification consumer (events in,
 * notifications and deliveries out) and the `default` queue's delivery workers with their
 * reconciler. Started in the background, retried while Kafka is unreachable, so the process
 * serves health meanwhile.
 */
function startWorkers(
  dependencies: NotificationsDependencies,
  deliveryDeps: Parameters<typeof startDeliveryWorkers>[0],
  delivery: Delivery,
) {
  let eventsJoined: () => void = () => undefined;
  const eventsReady = new Promise<void>((resolve) => (eventsJoined = resolve));
  startWhenKafkaIsReachable(
    dependencies.kafka,
    dependencies.logger,
    'notification-events consumer',
    async () => {
      const consumer = await startNotificationEventsConsumer(dependencies);
      void consumer.ready.then(eventsJoined);
    },
  );
  return { eventsReady, workers: startDeliveryWorkers(deliveryDeps, delivery) };
}
