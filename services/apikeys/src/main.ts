import { runService } from '@platform/runtime';
import { startApiKeys } from './apikeys-service.js';
import { loadApiKeysConfig } from './config.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'apikeys',
  loadConfig: () => loadApiKeysConfig(),
  start: ({ config, logger }) => startApiKeys(config, logger, VERSION),
});
