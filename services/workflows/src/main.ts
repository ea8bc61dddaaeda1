import { runDatabaseService } from '@platform/runtime';
import { loadWorkflowsConfig } from './config.js';
import { workflowsGrpc } from './grpc/workflows-grpc.js';

await runDatabaseService({
  name: 'workflows',
  loadConfig: () => loadWorkflowsConfig(),
  migrations: new URL('../src/data/migrations', import.meta.url),
  register: ({ pool, version }) => [workflowsGrpc({ pool, version })],
});
