import { SessionRegistry, TokenService } from '@platform/auth';
import { apikeysV1, identityV1 } from '@platform/contracts';
import {
  ApiKeysVerifier,
  Authenticator,
  createGatewayApp,
  defineRoute,
  IdentityPrincipalResolver,
  type RouteDefinition,
} from '@platform/gateway';
import { createOutgoingTrust, createServiceClient, type Principal, type ServiceClient } from '@platform/grpc';
import { createRedis, closeRedis } from '@platform/redis';
import { listen, requester, stackEnv, type Requester } from '@platform/testing';
import { z } from 'zod';
import { testLogger, type ApiKeysHarness } from './harness.js';

interface ProbeClients {
  apikeys: ServiceClient<typeof apikeysV1.ApiKeysServiceService>;
}

/** An API-key route as a future agent/workflow route would declare it; it echoes the principal. */
function probeRoute(
  path: string,
  summary: string,
  apiKeyScope: string,
  resource: { kind: 'workflow' | 'agent'; param: string },
) {
  return defineRoute<ProbeClients, Record<string, string>, undefined, undefined, Principal | undefined>({
    method: 'get',
    path,
    summary,
    tags: ['probe'],
    auth: 'user_or_api_key',
    apiKeyScope,
    apiKeyResource: resource,
    params: z.object({ [resource.param]: z.uuid() }),
    invoke: async (_input, { principal }) => principal,
  });
}

const probeRoutes: RouteDefinition<ProbeClients>[] = [
  probeRoute('/probe/workflows/:workflow_id', 'Echo the principal of a workflow call', 'workflow:execute', {
    kind: 'workflow',
    param: 'workflow_id',
  }),
  probeRoute('/probe/agents/:agent_id/chat', 'Echo the principal of an agent chat call', 'chat', {
    kind: 'agent',
    param: 'agent_id',
  }),
];

export interface ProbeGateway {
  request: Requester;
  verifier: ApiKeysVerifier;
  close(): Promise<void>;
}

/**
 * One gateway replica built from the real pieces (JWT, Redis revocation, identity principals,
 * the ApiKeysVerifier over the harness's apikeys service) serving the probe routes. Several of
 * them stand for several replicas with their own caches.
 */
export async function startProbeGateway(
  harness: ApiKeysHarness,
  cacheEntries = 10_000,
  /** The gateway's production default (PRINCIPAL_CACHE_TTL_MS): tests run the production path. */
  principalTtlMs = 5_000,
): Promise<ProbeGateway> {
  // The gateway's credentials: its service token and its principal signature.
  const trust = createOutgoingTrust({
    service: 'gateway',
    serviceSigningKey: stackEnv.serviceSigningKey('gateway'),
    principalSigningKey: stackEnv.principalSigningPrivateKey,
  });
  const apikeys = createServiceClient(
    apikeysV1.ApiKeysServiceService,
    'platform.apikeys.v1.ApiKeysService',
    harness.apikeysAddress,
    { credentials: trust.to('apikeys') },
  );
  const identity = createServiceClient(
    identityV1.IdentityServiceService,
    'platform.identity.v1.IdentityService',
    harness.identityAddress,
    { credentials: trust.to('identity') },
  );
  const redis = createRedis(stackEnv.redisUrl, { logger: testLogger });
  const principals = new IdentityPrincipalResolver(identity, principalTtlMs);
  const verifier = new ApiKeysVerifier(apikeys, redis, principals, {
    maxEntries: cacheEntries,
    now: harness.clock.now,
  });
  const authenticator = new Authenticator(
    new TokenService(stackEnv.secretKey),
    new SessionRegistry(redis),
    principals,
    verifier,
  );
  const app = createGatewayApp({
    logger: testLogger,
    routes: probeRoutes,
    clients: { apikeys },
    authenticator,
  });
  const http = await listen(app);
  return {
    request: requester(http.baseUrl),
    verifier,
    async close() {
      await http.close();
      apikeys.close();
      identity.close();
      await closeRedis(redis);
    },
  };
}
