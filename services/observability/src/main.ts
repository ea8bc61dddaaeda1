import { runDatabaseService } from '@platform/runtime';
import { loadObservabilityConfig } from './config.js';
import { observabilityGrpc } from './grpc/observability-grpc.js';

await runDatabaseService({
  name: 'observability',
  loadConfig: () => loadObservabilityConfig(),
  migrations: new URL('../src/data/migrations', import.meta.url),
  register: ({ pool, version }) => [observabilityGrpc({ pool, version })],
});
