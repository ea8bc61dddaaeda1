import { commonShape, env, loadConfig, serviceSigningShape, trustEnv } from '@platform/config';
import { z } from 'zod';
import { parseTrustProxy } from './http/trust-proxy.js';

const schema = z.object({
  ...commonShape,
  HTTP_PORT: env.port().default(8080),
  HTTP_HOST: z.string().default('0.0.0.0'),
  SECRET_KEY: env.secretKey(),
  /** Signs the principal forwarded to each service; only the gateway holds it (docs/security.md). */
  PRINCIPAL_SIGNING_PRIVATE_KEY: trustEnv.principalSigningPrivateKey(),
  /** The gateway's own key for its service tokens (GetPrincipal, VerifyKey); not the principal key. */
  ...serviceSigningShape,
  REDIS_URL: env.redisUrl(),
  /** How long a replica caches a user's principal (active state, permissions, teams). */
  PRINCIPAL_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(5_000),
  /**
   * An open SSE stream re-authenticates its caller (revoked token, deactivated user, revoked key)
   * and re-checks its access (team membership) this often; losing either ends it (docs/security.md).
   */
  STREAM_ACCESS_RECHECK_MS: z.coerce.number().int().min(200).max(60_000).default(3_000),
  BODY_LIMIT_BYTES: env.positiveInt().default(1024 * 1024),
  /** API-key verification answers cached per replica (docs/apikeys.md); 0 disables the cache. */
  API_KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /**
   * SIGTERM: for this long the replica answers not-ready (`/api/v1/health/ready`) but keeps serving,
   * so the load balancer stops sending before streams close and the listener goes (docs/gateway.md).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5_000),
  /** After the drain window: how long requests still in flight may finish before sockets are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** The `retry:` hint an event stream gets when the replica drains (each one between this and twice it). */
  SSE_RETRY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Deadline for one gRPC call from the gateway. */
  GRPC_TIMEOUT_MS: env.positiveInt().default(10_000),
  /** Which hops may name the client address (X-Forwarded-For); http/trust-proxy.ts, docs/gateway.md. */
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((text, ctx) => {
      const parsed = parseTrustProxy(text);
      if ('value' in parsed) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }),
  /** `/sso/complete` posts the sign-in to an opener of this origin (default: its own); docs/account-pages.md. */
  SSO_COMPLETE_OPENER_ORIGIN: z
    .url()
    .transform((url) => new URL(url).origin)
    .optional(),
  /** `/sso/complete` redirects here (with the result fragment) when no opener waits. */
  SSO_COMPLETE_RETURN_URL: z.url().optional(),
  IDENTITY_GRPC_ADDR: env.hostPort(),
  APIKEYS_GRPC_ADDR: env.hostPort(),
  NOTIFICATIONS_GRPC_ADDR: env.hostPort(),
  MODELS_GRPC_ADDR: env.hostPort(),
  WORKFLOWS_GRPC_ADDR: env.hostPort(),
  OBSERVABILITY_GRPC_ADDR: env.hostPort(),
});

export type GatewayConfig = z.infer<typeof schema>;

export function loadGatewayConfig(source: Record<string, string | undefined> = process.env): GatewayConfig {
  return loadConfig('gateway', schema, source);
}
