import { kafkaSecurity } from '@platform/config';
import { createOutgoingTrust, type ServiceRegistration } from '@platform/grpc';
import { createKafka, createProducer, ensurePlatformTopicsInBackground, TaskQueue } from '@platform/kafka';
import type { Logger } from '@platform/logger';
import { closeMongo, connectMongo } from '@platform/mongo';
import { closeRedis, createRedis } from '@platform/redis';
import { startWhenKafkaIsReachable } from '@platform/runtime';
import { createSettingsClient } from '@platform/settings-client';
import { identityAccess } from './adapters/identity-access.js';
import { identityDirectory } from './adapters/identity-directory.js';
import type { NotificationsConfig } from './config.js';
import { BulkEmailQuota } from './data/bulk-email-quota.js';
import { InboxIndex } from './data/inbox-index.js';
import { moveEpochOnReconnect } from './domain/inbox-read-model.js';
import { notificationModels } from './data/models.js';
import type { NotificationsDependencies } from './deps.js';
import { createDelivery, startDeliveryWorkers, type Delivery } from './delivery/index.js';
import { startNotificationEventsConsumer } from './events/notification-events-consumer.js';
import { channelTestsGrpc } from './grpc/channel-tests-grpc.js';
import { notificationsGrpc } from './grpc/notifications-grpc.js';
import { prepareIndexes } from './mongo-indexes.js';

export interface StartedNotifications {
  dependencies: NotificationsDependencies;
  /** The delivery side (deliveries, channels, the `default`-queue worker). */
  delivery: Delivery;
  services: ServiceRegistration[];
  /** Resolves once the automatic-notification consumer joined its group (tests wait for it). */
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
  });
  const producer = createProducer(kafka);
  const trust = createOutgoingTrust({
    service: 'notifications',
    serviceSigningKey: config.SERVICE_SIGNING_PRIVATE_KEY,
  });
  const toIdentity = trust.to('identity');
  const directory = identityAccess(config.IDENTITY_GRPC_ADDR, toIdentity);
  const now = options.now ?? (() => new Date());
  // The delivery side (src/delivery/) reaches the in-app side only through its DeliveryPort.
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
  // Started in the background, retried while Kafka is unreachable, so the service serves meanwhile.
  let eventsJoined: () => void = () => undefined;
  const eventsReady = new Promise<void>((resolve) => (eventsJoined = resolve));
  startWhenKafkaIsReachable(kafka, logger, 'notification-events consumer', async () => {
    const consumer = await startNotificationEventsConsumer(dependencies);
    void consumer.ready.then(eventsJoined);
  });
  const workers = startDeliveryWorkers(deliveryDeps, delivery);
  return {
    dependencies,
    delivery,
    services: [notificationsGrpc(dependencies), channelTestsGrpc(delivery, config.NOTIFICATION_PAGE_WINDOW)],
    eventsReady,
    async stop() {
      await workers.stop();
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
