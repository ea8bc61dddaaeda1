import { SessionRegistry, TokenService } from '@platform/auth';
import type { Logger } from '@platform/logger';
import { timeCommands, watchEvictionPolicy } from '@platform/redis';
import { Redis } from 'ioredis';
import type { Express } from 'express';
import { createGatewayApp } from './app.js';
import { ApiKeysVerifier } from './auth/apikeys-verifier.js';
import { Authenticator } from './auth/authenticator.js';
import { firstConnection } from './auth/redis-first-connection.js';
import { IdentityPrincipalResolver } from './auth/identity-principal-resolver.js';
import type { GatewayConfig } from './config.js';
import { ShutdownDrain } from './http/drain.js';
import { accountPages } from './pages/index.js';
import { routeTable } from './routes/index.js';
import { closeServiceClients, createServiceClients, type ServiceClients } from './service-clients.js';

export interface Gateway {
  app: Express;
  clients: ServiceClients;
  principals: IdentityPrincipalResolver;
  /** SIGTERM: readiness false, then event streams sent away (main.ts, docs/gateway.md "Shutdown"). */
  drain: ShutdownDrain;
  close(): Promise<void>;
}

/** How long requests wait for the gateway's first Redis connection before failing fast. */
const REDIS_FIRST_CONNECTION_WAIT_MS = 3_000;

/**
 * Wires the production gateway: gRPC clients for every service, JWT verification, revocation in
 * Redis, principal lookup through identity, and the route table. Used by main.ts and by tests that
 * run the real gateway in-process.
 */
export function buildGateway(config: GatewayConfig, logger: Logger, version = '0.0.0'): Gateway {
  const clients = createServiceClients(config);
  // Fail fast when Redis is down: the revocation check answers 503 instead of hanging.
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectionName: 'gateway',
  });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  timeCommands(redis);
  watchEvictionPolicy(redis, logger);
  // ...but not while the first connection is being made (see firstConnection).
  const redisStarted = firstConnection(redis, REDIS_FIRST_CONNECTION_WAIT_MS);
  const principals = new IdentityPrincipalResolver(clients.identity, config.PRINCIPAL_CACHE_TTL_MS);
  const authenticator = new Authenticator(
    new TokenService(config.SECRET_KEY),
    new SessionRegistry(redis),
    principals,
    new ApiKeysVerifier(clients.apikeys, redis, principals, { maxEntries: config.API_KEY_CACHE_MAX_ENTRIES }),
    redisStarted,
  );
  const drain = new ShutdownDrain(config.SSE_RETRY_MS);
  const app = createGatewayApp({
    logger,
    routes: routeTable,
    clients,
    authenticator,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    version,
    trustProxy: config.TRUST_PROXY,
    streamRecheckMs: config.STREAM_ACCESS_RECHECK_MS,
    drain,
    pages: accountPages({
      clients,
      logger,
      ssoOpenerOrigin: config.SSO_COMPLETE_OPENER_ORIGIN,
      ssoReturnUrl: config.SSO_COMPLETE_RETURN_URL,
    }),
  });
  return {
    app,
    clients,
    principals,
    drain,
    async close() {
      closeServiceClients(clients);
      redis.disconnect();
    },
  };
}
