import { runDatabaseService } from '@platform/runtime';
import { loadModelsConfig } from './config.js';
import { modelsGrpc } from './grpc/models-grpc.js';

await runDatabaseService({
  name: 'models',
  loadConfig: () => loadModelsConfig(),
  migrations: new URL('../src/data/migrations', import.meta.url),
  register: ({ pool, version }) => [modelsGrpc({ pool, version })],
});
