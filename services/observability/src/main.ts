import { openDatabase } from '@platform/db';
import { runService } from '@platform/runtime';
import { loadObservabilityConfig } from './config.js';
import { observabilityGrpc } from './grpc/observability-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

await runService({
  name: 'observability',
  loadConfig: () => loadObservabilityConfig(),
  async start({ config, logger }) {
    const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, {
      logger,
      applicationName: 'observability',
    });
    return { services: [observabilityGrpc({ pool, version: VERSION })], stop: () => pool.end() };
  },
});
