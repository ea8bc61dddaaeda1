import { ensureTopics, TaskWorker } from '@platform/kafka';
import { startWhenKafkaIsReachable } from '@platform/runtime';
import { runLimitsOf } from '../config.js';
import type { WorkflowsDependencies } from '../deps.js';
import { listenForHandBacks } from './hand-back-listener.js';
import { RunExecutor } from '../domain/runs/run-executor.js';
import { RUN_TASK, startRunReconciler, type RunTaskArgs } from '../domain/runs/run-reconciler.js';

export interface RunWorker {
  executor: RunExecutor;
  /** SIGTERM: stop claiming and consuming at once; runs in flight hand back after their node. */
  beginDrain(): void;
  /** Drains (if not begun) and waits until every run here is finished or handed back. */
  stop(): Promise<void>;
}

/**
 * The run worker of a replica with PROCESS_ROLE `all` or `worker` (docs/workflows.md "Runs"): the
 * `workflow` queue's worker group (`workers.workflow`), the executor that claims and holds run
 * leases, the LISTEN that hears hand-backs, and the reconciler that hands stranded runs over.
 */
export function startRunWorker(deps: WorkflowsDependencies, onRunEnded: (runId: string) => void): RunWorker {
  const { config, logger, pool, kafka } = deps;
  const executor = new RunExecutor({
    ...deps,
    leaseMs: config.RUN_LEASE_MS,
    concurrency: config.RUN_WORKER_CONCURRENCY,
    caps: { perUser: config.RUN_MAX_RUNNING_PER_USER, perTeam: config.RUN_MAX_RUNNING_PER_TEAM },
    pollMs: config.RUN_CLAIM_POLL_MS,
    limits: runLimitsOf(config),
    drainMs: config.RUN_WORKER_DRAIN_MS,
    onRunEnded,
  });
  const worker = new TaskWorker(kafka, {
    queue: 'workflow',
    redis: deps.redis,
    logger,
    topicPrefix: config.QUEUE_TOPIC_PREFIX,
    concurrency: 4,
  }).register<Partial<RunTaskArgs>>(RUN_TASK, async (args, meta) => {
    // Only a prompt to claim: the fair claim decides which run starts, the lease keeps it
    // (run-executor.ts). A run this process committed was usually claimed here already.
    if (typeof args.run_id === 'string' && !executor.claimedHere(meta.id)) await executor.submit(args.run_id);
  });
  startWhenKafkaIsReachable(kafka, logger, 'workflow queue worker', async () => {
    await ensureTopics(kafka, [worker.topic], { logger });
    await worker.start();
  });
  const handBacks = listenForHandBacks(pool, logger, () => void executor.fill());
  const reconciler = startRunReconciler({
    pool,
    logger,
    leaseMs: config.RUN_LEASE_MS,
    intervalMs: config.RUN_RECONCILE_INTERVAL_MS,
    retentionHours: config.RUN_EVENTS_RETENTION_HOURS,
    topicPrefix: config.QUEUE_TOPIC_PREFIX,
    now: deps.now,
    resumeHere: (runId) => executor.trySubmit(runId),
  });
  let consumerStopped: Promise<void> | undefined;
  const beginDrain = () => {
    if (consumerStopped) return;
    executor.beginDrain();
    reconciler.stop();
    // Leaves the group now, so the queue's partitions move to the other workers during the drain.
    consumerStopped = worker
      .stop()
      .catch((error: unknown) => logger.warn({ err: error }, 'stopping the workflow queue worker failed'));
  };
  return {
    executor,
    beginDrain,
    async stop() {
      beginDrain();
      await executor.stop();
      await consumerStopped;
      await handBacks.close();
    },
  };
}
