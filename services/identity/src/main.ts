import { runService } from '@platform/runtime';
import { loadIdentityConfig } from './config.js';
import { MIGRATIONS, startIdentity } from './identity-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'identity',
  loadConfig: () => loadIdentityConfig(),
  migrations: MIGRATIONS,
  start: ({ config, logger }) => startIdentity(config, logger, VERSION),
});
