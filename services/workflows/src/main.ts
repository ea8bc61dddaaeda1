import { runService } from '@platform/runtime';
import { loadWorkflowsConfig } from './config.js';
import { loadSandboxWorkerConfig } from './sandbox-worker/sandbox-config.js';
import { startSandboxWorker } from './sandbox-worker/sandbox-worker.js';
import { MIGRATIONS, startWorkflows } from './workflows-service.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

// The same image runs the sandbox worker (deploy/README.md "The sandbox worker"): a process of its
// own that needs only Kafka, so it starts from its own config and none of the service's stores.
if (process.env.PROCESS_ROLE === 'sandbox') {
  await runService({
    name: 'sandbox-worker',
    loadConfig: () => loadSandboxWorkerConfig(),
    start: ({ config, logger }) => startSandboxWorker(config, logger),
  });
} else {
  await runService({
    name: 'workflows',
    loadConfig: () => loadWorkflowsConfig(),
    migrations: MIGRATIONS,
    start: ({ config, logger }) => startWorkflows(config, logger, VERSION),
  });
}
