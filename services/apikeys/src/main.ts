import { runDatabaseService } from '@platform/runtime';
import { loadApiKeysConfig } from './config.js';
import { apikeysGrpc } from './grpc/apikeys-grpc.js';

await runDatabaseService({
  name: 'apikeys',
  loadConfig: () => loadApiKeysConfig(),
  migrations: new URL('../src/data/migrations', import.meta.url),
  register: ({ pool, version }) => [apikeysGrpc({ pool, version })],
});
