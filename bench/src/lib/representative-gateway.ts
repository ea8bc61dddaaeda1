// What makes a bench gateway measure what production runs (docs/benchmarks.md, issue 21): the
// production route table mounted BEFORE the bench's own routes (so express walks the whole table
// the way it does for the last production route), the production gRPC clients with the gateway's
// credentials, and the access log at `info` on stdout, which startChild points at a file as
// deploy/local/services.sh does for the real gateway.
import {
  createGatewayApp,
  createServiceClients,
  routeTable,
  type Authenticator,
  type RouteDefinition,
  type ServiceClients,
} from '@platform/gateway';
import { createLogger } from '@platform/logger';
import { serviceSigningKey } from './trust.js';

const env = (name: string, fallback = '') => process.env[name] ?? fallback;

/** The gateway's production clients, from the bench's environment (deploy/local/env.sh). */
export function productionClients(): ServiceClients {
  return createServiceClients({
    GRPC_TIMEOUT_MS: 10_000,
    PRINCIPAL_SIGNING_PRIVATE_KEY: env('PRINCIPAL_SIGNING_PRIVATE_KEY'),
    SERVICE_SIGNING_PRIVATE_KEY: serviceSigningKey('gateway'),
    IDENTITY_GRPC_ADDR: env('IDENTITY_GRPC_ADDR', '127.0.0.1:50061'),
    APIKEYS_GRPC_ADDR: env('APIKEYS_GRPC_ADDR', '127.0.0.1:50062'),
    NOTIFICATIONS_GRPC_ADDR: env('NOTIFICATIONS_GRPC_ADDR', '127.0.0.1:50063'),
    MODELS_GRPC_ADDR: env('MODELS_GRPC_ADDR', '127.0.0.1:50064'),
    WORKFLOWS_GRPC_ADDR: env('WORKFLOWS_GRPC_ADDR', '127.0.0.1:50065'),
    OBSERVABILITY_GRPC_ADDR: env('OBSERVABILITY_GRPC_ADDR', '127.0.0.1:50066'),
  });
}

/** The full production route table followed by `benchRoutes`, logging every request at `info`. */
export function representativeGatewayApp<Extra extends object>(options: {
  name: string;
  benchRoutes: RouteDefinition<Extra>[];
  benchClients: Extra;
  authenticator: Authenticator;
  clients?: ServiceClients;
}): ReturnType<typeof createGatewayApp> {
  const clients = { ...(options.clients ?? productionClients()), ...options.benchClients };
  return createGatewayApp<ServiceClients & Extra>({
    logger: createLogger(options.name, 'info'),
    routes: [
      ...(routeTable as RouteDefinition<ServiceClients & Extra>[]),
      ...(options.benchRoutes as RouteDefinition<ServiceClients & Extra>[]),
    ],
    clients,
    authenticator: options.authenticator,
  });
}
