// Child process (bench only): a gateway replica built like production — the whole route table, JWT
// + Redis revocation + identity principals, the access log at `info` on stdout (a file, see
// startChild) — plus the probe routes at the END of the table, on GATEWAY_PORT, calling PROBE_ADDR.
// BENCH_TELEMETRY=1 (telemetry-overhead.ts): telemetry started as the real gateway starts it, from
// TELEMETRY_ENABLED / OTEL_* (lib/bench-telemetry.ts); otherwise none is started.
import { SessionRegistry, TokenService } from '@platform/auth';
import { conformanceV1 } from '@platform/contracts';
import { ApiKeysVerifier, Authenticator, IdentityPrincipalResolver } from '@platform/gateway';
import { createServiceClient } from '@platform/grpc';
import { Redis } from 'ioredis';
import { probeRoutes } from './probe/index.js';
import { productionClients, representativeGatewayApp } from './lib/representative-gateway.js';
import { startBenchTelemetry } from './lib/bench-telemetry.js';

if (process.env.BENCH_TELEMETRY === '1') await startBenchTelemetry('gateway');

const env = (name: string) => process.env[name] ?? '';
const probe = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  env('PROBE_ADDR'),
);
const clients = productionClients();
const redis = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 1, enableOfflineQueue: false });
const principals = new IdentityPrincipalResolver(clients.identity, 5_000);
const authenticator = new Authenticator(
  new TokenService(env('SECRET_KEY')),
  new SessionRegistry(redis),
  principals,
  new ApiKeysVerifier(clients.apikeys, redis, principals, { maxEntries: 10_000 }),
);
const app = representativeGatewayApp({
  name: 'bench-gateway',
  benchRoutes: probeRoutes.filter((route) => route.auth === 'public'),
  benchClients: { probe },
  authenticator,
  clients,
});
const server = app.listen(Number(env('GATEWAY_PORT')), '127.0.0.1', () => process.send?.({ ready: true }));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
