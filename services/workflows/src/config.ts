import {
  ConfigError,
  declaredCallers,
  commonShape,
  processRoleShape,
  runsWorkers,
  env,
  kafkaShape,
  loadConfig,
  postgresShape,
  serviceSigningShape,
  serviceTrustShape,
} from '@platform/config';
import { z } from 'zod';
import type { RunLimits } from './domain/runs/engine/limits.js';

import { INTERNAL_CALLERS } from './grpc/internal-callers.js';

const MIB = 1024 * 1024;

/** Shared with the sandbox worker's config (sandbox-worker/sandbox-config.ts). */
export const queueTopicPrefixShape = {
  /**
   * Prefix of the work-queue topics, their worker groups and the sandbox results topic; empty in
   * production, unique in tests.
   */
  QUEUE_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
};

const schema = z.object({
  ...commonShape,
  /** `api`: no run worker; `worker`: only the run worker (deploy/README.md "API and workers apart"). */
  ...processRoleShape,
  /** Principal signature checks and the public keys of the callers its internal methods declare (docs/security.md). */
  ...serviceTrustShape(declaredCallers(INTERNAL_CALLERS)),
  /** Its own key for the service tokens of its outgoing calls (docs/security.md). */
  ...serviceSigningShape,
  GRPC_PORT: env.port().default(50065),
  /** DATABASE_URL, DATABASE_SESSION_URL, MIGRATE_ON_START (deploy/README.md "Migrations"). */
  ...postgresShape,
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
  ...queueTopicPrefixShape,
  /**
   * Whether this replica executes runs from the `workflow` queue. The older switch: `false` with
   * PROCESS_ROLE `all` is what PROCESS_ROLE=api says; with `worker` it is refused.
   */
  RUN_WORKER_ENABLED: env.boolean(true),
  /**
   * On SIGTERM, how long a node in flight may still finish before it is cut and its run handed
   * back (docs/workflows.md "Drain on shutdown"); keep it below the pod's grace period.
   */
  RUN_WORKER_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
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
  // Fairness between users (docs/security.md "Fairness between users: runs, streams and waits").
  /** Runs of one user executing at once over all workers; the rest wait queued behind others. */
  RUN_MAX_RUNNING_PER_USER: env.positiveInt().max(10_000).default(8),
  /** Runs billed to one team executing at once over all workers; the rest wait queued. */
  RUN_MAX_RUNNING_PER_TEAM: env.positiveInt().max(10_000).default(16),
  /** Unfinished (queued + running) runs one user may have; StartRun past it is 400 / 5400. */
  RUN_MAX_UNFINISHED_PER_USER: env.positiveInt().max(100_000).default(200),
  /** Unfinished (queued + running) runs billed to one team; StartRun past it is 400 / 5400. */
  RUN_MAX_UNFINISHED_PER_TEAM: env.positiveInt().max(100_000).default(1_000),
  /** How often a worker with a free slot looks for a claimable queued run without being woken. */
  RUN_CLAIM_POLL_MS: env.positiveInt().min(50).max(60_000).default(1_000),
  /** Run event streams (SSE) one user may hold open at once; one more is 400 / 5400. */
  RUN_STREAMS_PER_USER: env.positiveInt().max(1_000).default(10),
  /** `wait: true` StartRun calls one user may have waiting at once; one more is 400 / 5400. */
  RUN_WAITS_PER_USER: env.positiveInt().max(1_000).default(10),
  // The ephemeral /workflow-versions store shares Redis with sessions and revocations
  // (docs/workflows.md "Limits of the ephemeral store", docs/security.md "Shared stores").
  /** Versions one workflow keeps; a create past it evicts the oldest that is not published. */
  VERSIONS_MAX_PER_WORKFLOW: env.positiveInt().min(10).max(10_000).default(100),
  /** Bytes of versions one user may hold at once (bodies + 1 KiB per record); past it: 400 / 5400. */
  VERSIONS_MAX_BYTES_PER_USER: env.positiveInt().min(1_048_576).default(16_777_216),
  // What one run may hold (docs/security.md "Workflow runs: what one run may hold"); past a
  // bound the node fails `output_too_large`. The upper bounds keep a run record readable: its
  // outputs (one end node's, at most RUN_MAX_NODE_OUTPUT_BYTES) and inputs fit one gRPC answer.
  /** UTF-8 bytes of one rendered template text (a template node's text, an end output, a URL). */
  RUN_MAX_VALUE_BYTES: env
    .positiveInt()
    .min(1024)
    .max(4 * MIB)
    .default(MIB),
  /** Bytes of one node's outputs as JSON, and of the text one node streams. */
  RUN_MAX_NODE_OUTPUT_BYTES: env
    .positiveInt()
    .min(1024)
    .max(4 * MIB)
    .default(2 * MIB),
  /** Bytes one run holds: inputs + every node's outputs + streamed text. */
  RUN_MAX_RUN_BYTES: env
    .positiveInt()
    .min(1024)
    .max(64 * MIB)
    .default(8 * MIB),
  /** Bytes of an http_request node's response body (the download is cut past it). */
  RUN_MAX_HTTP_RESPONSE_BYTES: env
    .positiveInt()
    .min(1024)
    .max(16 * MIB)
    .default(2 * MIB),
  /** Times a node in flight when its worker stopped is started again; then the run fails. */
  RUN_MAX_NODE_RESUMES: z.coerce.number().int().min(0).max(20).default(3),
  // Code nodes (docs/workflows.md "code"): run by the sandbox worker (PROCESS_ROLE=sandbox).
  /** The isolate heap limit of every code node, MiB (V8 enforces it; an overrun is `memory_limit`). */
  CODE_NODE_MEMORY_MB: z.coerce.number().int().min(8).max(256).default(64),
  /**
   * How long past a code node's own time limit the run worker waits for the sandbox's answer
   * before it takes that sandbox worker for lost (killed, OOM) and sends the task once more.
   */
  SANDBOX_LOST_AFTER_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
});

/** What the engine gets of the limits above. */
export function runLimitsOf(config: WorkflowsConfig): RunLimits {
  return {
    maxValueBytes: config.RUN_MAX_VALUE_BYTES,
    maxNodeOutputBytes: config.RUN_MAX_NODE_OUTPUT_BYTES,
    maxRunBytes: config.RUN_MAX_RUN_BYTES,
    maxHttpResponseBytes: config.RUN_MAX_HTTP_RESPONSE_BYTES,
    maxNodeResumes: config.RUN_MAX_NODE_RESUMES,
  };
}

export type WorkflowsConfig = z.infer<typeof schema>;

export function loadWorkflowsConfig(
  source: Record<string, string | undefined> = process.env,
): WorkflowsConfig {
  const config = loadConfig('workflows', schema, source);
  if (config.PROCESS_ROLE === 'worker' && !config.RUN_WORKER_ENABLED)
    throw new ConfigError('workflows', [
      'RUN_WORKER_ENABLED=false contradicts PROCESS_ROLE=worker (a worker that runs nothing): unset RUN_WORKER_ENABLED, or use PROCESS_ROLE=api for a replica without a run worker',
    ]);
  return config;
}

/** True when this process executes runs (PROCESS_ROLE `all` or `worker`, and RUN_WORKER_ENABLED). */
export const runsRunWorker = (config: WorkflowsConfig): boolean =>
  runsWorkers(config.PROCESS_ROLE) && config.RUN_WORKER_ENABLED;
