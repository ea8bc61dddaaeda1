import { kafkaSecurity } from '@platform/config';
import { createOutgoingTrust } from '@platform/grpc';
import { createKafka, createProducer, ensurePlatformTopicsInBackground } from '@platform/kafka';
import { closeMongo, connectMongo, syncIndexes } from '@platform/mongo';
import { closeRedis, createRedis } from '@platform/redis';
import { runService } from '@platform/runtime';
import { createSettingsClient } from '@platform/settings-client';
import { identityDirectory } from './adapters/identity-directory.js';
import { loadNotificationsConfig } from './config.js';
import { createDelivery, startDeliveryWorkers } from './delivery/index.js';
import { channelTestsGrpc } from './grpc/channel-tests-grpc.js';
import { notificationsGrpc } from './grpc/notifications-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'notifications',
  loadConfig: () => loadNotificationsConfig(),
  async start({ config, logger }) {
    const connection = await connectMongo(config.MONGO_URL, { logger, appName: 'notifications' });
    const redis = createRedis(config.REDIS_URL, { logger, connectionName: 'notifications' });
    const kafka = createKafka({
      brokers: config.KAFKA_BROKERS,
      clientId: 'notifications',
      logger,
      ...kafkaSecurity('notifications', config),
    });
    const producer = createProducer(kafka);
    const trust = createOutgoingTrust({ service: 'notifications', serviceKeys: config.SERVICE_AUTH_KEY });
    // Site settings, cached briefly and dropped on `settings.changed` (packages/settings-client).
    const settings = createSettingsClient({
      address: config.IDENTITY_GRPC_ADDR,
      trust,
      kafka,
      service: 'notifications',
      logger,
    });
    void settings.start();
    const directory = identityDirectory(config.IDENTITY_GRPC_ADDR, trust.to('identity'));
    const deliveryDeps = { connection, redis, kafka, producer, logger, config, settings, directory };
    const delivery = createDelivery(deliveryDeps);
    await syncIndexes(connection);
    ensurePlatformTopicsInBackground(kafka, logger);
    const workers = startDeliveryWorkers(deliveryDeps, delivery);
    return {
      services: [notificationsGrpc({ connection, version: VERSION }), channelTestsGrpc(delivery)],
      async stop() {
        await workers.stop();
        await kafka.disconnect();
        await settings.stop();
        directory.close();
        await closeRedis(redis);
        await closeMongo(connection);
      },
    };
  },
});
