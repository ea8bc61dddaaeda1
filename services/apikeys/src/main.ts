import { openDatabase } from '@platform/db';
import { runService } from '@platform/runtime';
import { loadApiKeysConfig } from './config.js';
import { apikeysGrpc } from './grpc/apikeys-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

await runService({
  name: 'apikeys',
  loadConfig: () => loadApiKeysConfig(),
  async start({ config, logger }) {
    const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, { logger, applicationName: 'apikeys' });
    return { services: [apikeysGrpc({ pool, version: VERSION })], stop: () => pool.end() };
  },
});
