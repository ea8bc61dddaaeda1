import { kafkaSecurity } from '@platform/config';
import { createOutgoingTrust } from '@platform/grpc';
import { createKafka, createProducer, ensurePlatformTopicsInBackground } from '@platform/kafka';
import { closeMongo, connectMongo, syncIndexes } from '@platform/mongo';
import { closeRedis, createRedis } from '@platform/redis';
import { runService } from '@platform/runtime';
import { identitySettingsSource } from './adapters/effective-settings.js';
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
    const toIdentity = createOutgoingTrust({
      service: 'notifications',
      serviceKeys: config.SERVICE_AUTH_KEY,
    }).to('identity');
    const settings = identitySettingsSource(config.IDENTITY_GRPC_ADDR, toIdentity);
    const directory = identityDirectory(config.IDENTITY_GRPC_ADDR, toIdentity);
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
        settings.close();
        directory.close();
        await closeRedis(redis);
        await closeMongo(connection);
      },
    };
  },
});
