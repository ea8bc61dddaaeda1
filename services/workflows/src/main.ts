import { runService } from '@platform/runtime';

const VERSION = process.env.npm_package_version ?? '0.1.0';

// The same image runs the sandbox worker (deploy/README.md "The sandbox worker"): a process of its
// own that needs only Kafka. Each role loads only its own modules (the service's database, Redis
// and gRPC clients stay out of the sandbox worker's memory).
if (process.env.PROCESS_ROLE === 'sandbox') {
  const { loadSandboxWorkerConfig } = await import('./sandbox-worker/sandbox-config.js');
  const { startSandboxWorker } = await import('./sandbox-worker/sandbox-worker.js');
  await runService({
    name: 'sandbox-worker',
    loadConfig: () => loadSandboxWorkerConfig(),
    start: ({ config, logger }) => startSandboxWorker(config, logger),
  });
} else {
  const { loadWorkflowsConfig } = await import('./config.js');
  const { MIGRATIONS, startWorkflows } = await import('./workflows-service.js');
  await runService({
    name: 'workflows',
    loadConfig: () => loadWorkflowsConfig(),
    migrations: MIGRATIONS,
    start: ({ config, logger }) => startWorkflows(config, logger, VERSION),
  });
}
