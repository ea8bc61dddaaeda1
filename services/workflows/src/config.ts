import {
  declaredCallers,
  commonShape,
  env,
  kafkaShape,
  loadConfig,
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
  // Runs (docs/workflows.md "Runs").
  /** Prefix of the work-queue topics and worker group; empty in production, unique in tests. */
  QUEUE_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
  /** Whether this replica executes runs from the `workflow` queue (API-only replicas say false). */
  RUN_WORKER_ENABLED: env.boolean(true),
  /** Runs one replica executes at once. */
  RUN_WORKER_CONCURRENCY: env.positiveInt().max(256).default(16),
  /** A worker's lease on a run, renewed every third of it; a dead worker's runs resume after it. */
  RUN_LEASE_MS: env.positiveInt().min(100).default(15_000),
  /** How often the reconciler looks for runs whose worker stopped renewing its lease. */
  RUN_RECONCILE_INTERVAL_MS: env.positiveInt().default(5_000),
  /** `wait: true` answers after the run ends or after this long (then `running`/`queued`). */
  RUN_WAIT_LIMIT_MS: env.positiveInt().max(120_000).default(30_000),
  /** A finished run's event log is kept this long (at least 24 h), then purged. */
  RUN_EVENTS_RETENTION_HOURS: env.positiveInt().min(24).default(168),
});

export type WorkflowsConfig = z.infer<typeof schema>;

export function loadWorkflowsConfig(
  source: Record<string, string | undefined> = process.env,
): WorkflowsConfig {
  return loadConfig('workflows', schema, source);
}
