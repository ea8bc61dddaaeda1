// Child process: the probe gRPC service on PROBE_PORT (bench only).
import { createLogger } from '@platform/logger';
import { stackEnv } from '@platform/testing';
import { startProbeService } from './probe/index.js';

const probe = await startProbeService(
  stackEnv.databaseUrl,
  createLogger('bench-probe', 'warn'),
  Number(process.env.PROBE_PORT),
);
process.send?.({ ready: probe.address });
process.on('SIGTERM', () => void probe.stop().then(() => process.exit(0)));
