// Child process (bench only): one gateway replica built from the production pieces (JWT + Redis
// revocation, identity principals, ApiKeysVerifier) serving one API-key route on GATEWAY_PORT:
// `GET /bench/workflows/:workflow_id` (auth user_or_api_key, scope workflow:execute, workflow
// binding), which answers the principal without a further RPC so the numbers are the
// authentication path plus the HTTP edge. API_KEY_CACHE_MAX_ENTRIES=0 makes every request cold.
// Like production, the route sits behind the whole route table and every request is logged at
// `info` on stdout (a file, see startChild): lib/representative-gateway.ts.
import { SessionRegistry, TokenService } from '@platform/auth';
import { apikeysV1, identityV1 } from '@platform/contracts';
import { ApiKeysVerifier, Authenticator, defineRoute, IdentityPrincipalResolver } from '@platform/gateway';
import { createServiceClient, type Principal } from '@platform/grpc';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { productionClients, representativeGatewayApp } from './lib/representative-gateway.js';
import { gatewayCredentials } from './lib/trust.js';

const env = (name: string) => process.env[name] ?? '';
const apikeys = createServiceClient(
  apikeysV1.ApiKeysServiceService,
  'platform.apikeys.v1.ApiKeysService',
  env('APIKEYS_GRPC_ADDR'),
  { credentials: gatewayCredentials('apikeys') },
);
const identity = createServiceClient(
  identityV1.IdentityServiceService,
  'platform.identity.v1.IdentityService',
  env('IDENTITY_GRPC_ADDR'),
  { credentials: gatewayCredentials('identity') },
);
const redis = new Redis(env('REDIS_URL'), { maxRetriesPerRequest: 1, enableOfflineQueue: false });
const principals = new IdentityPrincipalResolver(identity, 5_000);
const authenticator = new Authenticator(
  new TokenService(env('SECRET_KEY')),
  new SessionRegistry(redis),
  principals,
  new ApiKeysVerifier(apikeys, redis, principals, { maxEntries: Number(env('API_KEY_CACHE_MAX_ENTRIES')) }),
);
const route = defineRoute<
  { apikeys: typeof apikeys },
  { workflow_id: string },
  undefined,
  undefined,
  Principal | undefined
>({
  method: 'get',
  path: '/bench/workflows/:workflow_id',
  summary: 'API-key benchmark route',
  tags: ['bench'],
  auth: 'user_or_api_key',
  apiKeyScope: 'workflow:execute',
  apiKeyResource: { kind: 'workflow', param: 'workflow_id' },
  params: z.object({ workflow_id: z.uuid() }),
  invoke: async (_input, { principal }) => principal,
  present: (principal) => ({ user_id: principal?.user_id, auth_method: principal?.auth_method }),
});
const app = representativeGatewayApp({
  name: 'bench-apikey-gateway',
  benchRoutes: [route],
  benchClients: { apikeys },
  authenticator,
  clients: { ...productionClients(), apikeys, identity },
});
const server = app.listen(Number(env('GATEWAY_PORT')), '127.0.0.1', () => process.send?.({ ready: true }));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
