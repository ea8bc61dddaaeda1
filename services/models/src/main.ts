import { openDatabase } from '@platform/db';
import { runService } from '@platform/runtime';
import { loadModelsConfig } from './config.js';
import { modelsGrpc } from './grpc/models-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

await runService({
  name: 'models',
  loadConfig: () => loadModelsConfig(),
  async start({ config, logger }) {
    const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, { logger, applicationName: 'models' });
    return { services: [modelsGrpc({ pool, version: VERSION })], stop: () => pool.end() };
  },
});
