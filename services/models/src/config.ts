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
import { MODELS_INTERNAL_CALLERS, QUOTA_INTERNAL_CALLERS } from './grpc/internal-callers.js';

const schema = z.object({
  ...commonShape,
  /** Principal signature checks and the public keys of the callers its internal methods declare (docs/security.md). */
  ...serviceTrustShape(declaredCallers(QUOTA_INTERNAL_CALLERS, MODELS_INTERNAL_CALLERS)),
  /** Its own key for the service tokens of its outgoing calls (docs/security.md). */
  ...serviceSigningShape,
  GRPC_PORT: env.port().default(50064),
  /** DATABASE_URL, DATABASE_SESSION_URL, MIGRATE_ON_START (deploy/README.md "Migrations"). */
  ...postgresShape,
  /** Seals model API keys at rest (SecretBox); must be the deployment's one SECRET_KEY. */
  SECRET_KEY: env.secretKey(),
  REDIS_URL: env.redisUrl(),
  /** Grant notifications out (through the outbox). Brokers, and SASL/TLS when the cluster asks. */
  ...kafkaShape,
  /** Teams and their OWNER/ADMINs for grants (identity's internal DirectoryService). */
  IDENTITY_GRPC_ADDR: env.hostPort(),
  /**
   * How long a RecordModelUsage idempotency key is remembered (days); longer than any caller
   * retries a record (docs/models.md "Grants and quotas").
   */
  USAGE_KEY_RETENTION_DAYS: env.positiveInt().default(40),
});

export type ModelsConfig = z.infer<typeof schema>;

export function loadModelsConfig(source: Record<string, string | undefined> = process.env): ModelsConfig {
  return loadConfig('models', schema, source);
}
