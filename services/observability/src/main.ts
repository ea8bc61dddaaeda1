import { runService } from '@platform/runtime';
import { loadObservabilityConfig } from './config.js';
import { MIGRATIONS, startObservability } from './observability-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'observability',
  loadConfig: () => loadObservabilityConfig(),
  migrations: MIGRATIONS,
  start: ({ config, logger }) => startObservability(config, logger, VERSION),
});
