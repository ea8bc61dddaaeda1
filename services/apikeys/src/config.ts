import {
  declaredCallers,
  commonShape,
  env,
  kafkaShape,
  loadConfig,
  postgresShape,
  serviceSigningShape,
  serviceTrustShape,
} from '@platform/config';
import { z } from 'zod';
import { INTERNAL_CALLERS } from './grpc/internal-callers.js';

const schema = z.object({
  ...commonShape,
  /** Principal signature checks and the public keys of the callers its internal methods declare (docs/security.md). */
  ...serviceTrustShape(declaredCallers(INTERNAL_CALLERS)),
  /** Its own key for the service tokens of its outgoing calls (docs/security.md). */
  ...serviceSigningShape,
  GRPC_PORT: env.port().default(50062),
  /** DATABASE_URL, DATABASE_SESSION_URL, MIGRATE_ON_START (deploy/README.md "Migrations"). */
  ...postgresShape,
  /** Verification cache revisions and the coalesced last_used_at buffer; the expiry-check lock. */
  REDIS_URL: env.redisUrl(),
  /** Expiry notifications out, agent directory in. */
  /** Brokers, and SASL/TLS when the cluster asks for them. */
  ...kafkaShape,
  /** Usernames of key owners (identity's GetUsers). */
  IDENTITY_GRPC_ADDR: env.hostPort(),
  /** Names of bound workflows (workflows' GetWorkflowNames). */
  WORKFLOWS_GRPC_ADDR: env.hostPort(),
  /** How often buffered key uses are written to `api_keys.last_used_at` (docs/apikeys.md). */
  LAST_USED_FLUSH_MS: env.positiveInt().default(30_000),
  /**
   * Prefix of this service's Redis keys (revisions, last-used buffer, locks). Tests use a unique
   * one so parallel runs and the local service never share state.
   */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]+$/)
    .max(100)
    .default('apikeys:'),
  /** Consumer group that fills agent_directory from `platform.agent-directory` (shared by replicas). */
  AGENT_DIRECTORY_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .max(200)
    .default('apikeys.agent-directory'),
  /** Local time of the daily `tasks.check_api_key_expiration` (server timezone, HH:MM). */
  EXPIRY_CHECK_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')
    .default('09:00'),
});

export type ApiKeysConfig = z.infer<typeof schema>;

export function loadApiKeysConfig(source: Record<string, string | undefined> = process.env): ApiKeysConfig {
  return loadConfig('apikeys', schema, source);
}
