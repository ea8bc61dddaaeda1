import { connectInfrastructure, runService } from '@platform/runtime';
import { loadObservabilityConfig } from './config.js';
import { observabilityGrpc } from './grpc/observability-grpc.js';
import { systemMonitorsGrpc } from './system-monitors.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

await runService({
  name: 'observability',
  loadConfig: () => loadObservabilityConfig(),
  start: async ({ config, logger }) => {
    const { close, ...connections } = await connectInfrastructure(
      config,
      logger,
      'observability',
      new URL('../src/data/migrations', import.meta.url),
    );
    return {
      services: [
        observabilityGrpc({ pool: connections.pool, version: VERSION }),
        systemMonitorsGrpc(config, { ...connections, logger }),
      ],
      stop: close,
    };
  },
});
