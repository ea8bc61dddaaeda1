// Child process: the gateway app with the probe routes on GATEWAY_PORT, calling PROBE_ADDR (bench only).
import { conformanceV1 } from '@platform/contracts';
import { createGatewayApp } from '@platform/gateway';
import { createServiceClient } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { probeRoutes } from './probe/index.js';

const logger = createLogger('bench-gateway', 'warn');
const probe = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  process.env.PROBE_ADDR!,
);
const app = createGatewayApp({
  logger,
  routes: probeRoutes.filter((route) => route.auth === 'public'),
  clients: { probe },
});
const server = app.listen(Number(process.env.GATEWAY_PORT), '127.0.0.1', () =>
  process.send?.({ ready: true }),
);
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
