import { commonShape, env, kafkaShape, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50064),
  DATABASE_URL: env.postgresUrl(),
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
