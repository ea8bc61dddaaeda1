import { commonShape, env, kafkaShape, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50065),
  DATABASE_URL: env.postgresUrl(),
  /** The ephemeral `/workflow-versions` store (shared by replicas; docs/workflows.md). */
  REDIS_URL: env.redisUrl(),
  /** Brokers, and SASL/TLS when the cluster asks for them. */
  ...kafkaShape,
  /** Team roles of callers (identity's internal DirectoryService.GetTeamMembership). */
  IDENTITY_GRPC_ADDR: env.hostPort(),
  /** llm nodes: quota checks, endpoint resolution and usage (models' internal RPCs). */
  MODELS_GRPC_ADDR: env.hostPort(),
  /**
   * Largest workflow definition accepted, in bytes of its JSON text (docs/workflows.md); larger is
   * 422 / 1001 naming `definition`. The gateway's body limit (BODY_LIMIT_BYTES, 1 MiB) answers 413 first.
   */
  MAX_DEFINITION_BYTES: env.positiveInt().default(524_288),
});

export type WorkflowsConfig = z.infer<typeof schema>;

export function loadWorkflowsConfig(
  source: Record<string, string | undefined> = process.env,
): WorkflowsConfig {
  return loadConfig('workflows', schema, source);
}
