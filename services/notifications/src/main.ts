import { closeMongo, connectMongo, syncIndexes } from '@platform/mongo';
import { runService } from '@platform/runtime';
import { loadNotificationsConfig } from './config.js';
import { notificationsGrpc } from './grpc/notifications-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'notifications',
  loadConfig: () => loadNotificationsConfig(),
  async start({ config, logger }) {
    const connection = await connectMongo(config.MONGO_URL, { logger, appName: 'notifications' });
    await syncIndexes(connection);
    return {
      services: [notificationsGrpc({ connection, version: VERSION })],
      stop: () => closeMongo(connection),
    };
  },
});
