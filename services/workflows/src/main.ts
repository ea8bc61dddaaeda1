import { openDatabase } from '@platform/db';
import { runService } from '@platform/runtime';
import { loadWorkflowsConfig } from './config.js';
import { workflowsGrpc } from './grpc/workflows-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

await runService({
  name: 'workflows',
  loadConfig: () => loadWorkflowsConfig(),
  async start({ config, logger }) {
    const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, {
      logger,
      applicationName: 'workflows',
    });
    return { services: [workflowsGrpc({ pool, version: VERSION })], stop: () => pool.end() };
  },
});
