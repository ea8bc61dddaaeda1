import { runService } from '@platform/runtime';
import { loadNotificationsConfig } from './config.js';
import { migrateIndexesCommand } from './mongo-indexes.js';
import { startNotifications } from './notifications-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'notifications',
  loadConfig: () => loadNotificationsConfig(),
  commands: { migrate: migrateIndexesCommand },
  start: ({ config, logger }) => startNotifications(config, logger, VERSION),
});
