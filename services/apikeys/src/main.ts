import { runService } from '@platform/runtime';
import { MIGRATIONS, startApiKeys } from './apikeys-service.js';
import { loadApiKeysConfig } from './config.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'apikeys',
  loadConfig: () => loadApiKeysConfig(),
  migrations: MIGRATIONS,
  start: ({ config, logger }) => startApiKeys(config, logger, VERSION),
});
