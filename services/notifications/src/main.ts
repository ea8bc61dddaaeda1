import { runService } from '@platform/runtime';
import { loadNotificationsConfig } from './config.js';
import { startNotifications } from './notifications-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'notifications',
  loadConfig: () => loadNotificationsConfig(),
  start: ({ config, logger }) => startNotifications(config, logger, VERSION),
});
