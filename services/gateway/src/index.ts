// Library surface of the gateway, used by tests and benchmarks to compose an app.
export { createGatewayApp, API_PREFIX, DEFAULT_BODY_LIMIT_BYTES, type GatewayAppOptions } from './app.js';
export {
  Authenticator,
  type ApiKeyVerifier,
  type PrincipalResolver,
  type ResolvedUser,
} from './auth/authenticator.js';
export {
  defineRoute,
  type RouteDefinition,
  type RouteContext,
  type AuthRequirement,
} from './routes/route-definition.js';
export { repeatable, queryInt, queryBool, pagingQuery } from './routes/validation.js';
export { routeTable } from './routes/index.js';
export { healthRoutes } from './routes/health-routes.js';
export { buildGateway, type Gateway } from './gateway.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
export { IdentityPrincipalResolver } from './auth/identity-principal-resolver.js';
export { ApiKeysVerifier, type ApiKeysVerifierOptions } from './auth/apikeys-verifier.js';
export { apiKeyCheckFor, type ApiKeyCheck } from './auth/api-key-check.js';
export { createServiceClients, type ServiceClients } from './service-clients.js';
export { ShutdownDrain } from './http/drain.js';
export { drainAndClose, type ShutdownPlan, type ShutdownReport } from './http/shutdown.js';
