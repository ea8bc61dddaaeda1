import {
  declaredCallers,
  commonShape,
  env,
  kafkaShape,
  loadConfig,
  postgresShape,
  serviceTrustShape,
  taskSealShape,
} from '@platform/config';
import { z } from 'zod';
import { INTERNAL_CALLERS } from './grpc/internal-callers.js';

const schema = z.object({
  ...commonShape,
  /** Principal signature checks and the public keys of the callers its internal methods declare (docs/security.md). */
  ...serviceTrustShape(declaredCallers(INTERNAL_CALLERS)),
  GRPC_PORT: env.port().default(50061),
  /** DATABASE_URL, DATABASE_SESSION_URL, MIGRATE_ON_START (deploy/README.md "Migrations"). */
  ...postgresShape,
  REDIS_URL: env.redisUrl(),
  /** Brokers, and SASL/TLS when the cluster asks for them. */
  ...kafkaShape,
  SECRET_KEY: env.secretKey(),
  /** Seals `email.send` args (codes, links) for the default queue's worker (docs/security.md). */
  ...taskSealShape,
  /** Most entries `model_endpoint_allowlist` may hold (docs/models.md "Endpoint allowlist"). */
  MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES: z.coerce.number().int().min(1).max(1000).default(200),
  /**
   * How long a password attempt waits for a place in its account's login budget while every place
   * is held by attempts being checked (docs/identity.md "Lockout budget"); then 400 / 5400. 0
   * refuses at once.
   */
  LOGIN_PLACE_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(5_000),
  /** Public URL of the web app, for links in verification and reset mails. */
  PUBLIC_WEB_URL: z.url().default('http://localhost:8080'),
  /**
   * Accept `http://` OIDC issuers (SSO). Off in production: an ID token fetched over plain HTTP
   * proves nothing. Tests and local development with a loopback provider turn it on.
   */
  SSO_ALLOW_INSECURE_ISSUERS: env.boolean(false),
  /** scrypt cost N of password hashes (a power of two; see docs/identity.md for the measured cost). */
  PASSWORD_HASH_N: z.coerce
    .number()
    .int()
    .min(2 ** 10)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(2 ** 15),
  /**
   * Prefix of the work-queue topics and worker groups (`<prefix>queue.default`,
   * `<prefix>workers.default`). Empty in production; tests use a unique one so a running local
   * service never consumes their tasks.
   */
  QUEUE_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
  /** Local time of the daily `tasks.check_password_expiration` (server timezone, HH:MM). */
  PASSWORD_EXPIRY_CHECK_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')
    .default('08:00'),
});

export type IdentityConfig = z.infer<typeof schema>;

export function loadIdentityConfig(source: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfig('identity', schema, source);
}
