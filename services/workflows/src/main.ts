import { runService } from '@platform/runtime';
import { loadWorkflowsConfig } from './config.js';
import { MIGRATIONS, startWorkflows } from './workflows-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'workflows',
  loadConfig: () => loadWorkflowsConfig(),
  migrations: MIGRATIONS,
  start: ({ config, logger }) => startWorkflows(config, logger, VERSION),
});
