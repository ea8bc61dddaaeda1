import { openDatabase } from '@platform/db';
import { runService } from '@platform/runtime';
import { loadIdentityConfig } from './config.js';
import { identityGrpc } from './grpc/identity-grpc.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';
const MIGRATIONS = new URL('../src/data/migrations', import.meta.url);

await runService({
  name: 'identity',
  loadConfig: () => loadIdentityConfig(),
  async start({ config, logger }) {
    const pool = await openDatabase(config.DATABASE_URL, MIGRATIONS, { logger, applicationName: 'identity' });
    return { services: [identityGrpc({ pool, version: VERSION })], stop: () => pool.end() };
  },
});
