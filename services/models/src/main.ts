import { runService } from '@platform/runtime';
import { loadModelsConfig } from './config.js';
import { MIGRATIONS, startModels } from './models-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'models',
  loadConfig: () => loadModelsConfig(),
  migrations: MIGRATIONS,
  start: ({ config, logger }) => startModels(config, logger, VERSION),
});
