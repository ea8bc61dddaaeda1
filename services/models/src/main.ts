import { runService } from '@platform/runtime';
import { loadModelsConfig } from './config.js';
import { startModels } from './models-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'models',
  loadConfig: () => loadModelsConfig(),
  start: ({ config, logger }) => startModels(config, logger, VERSION),
});
