import type { ServiceRegistration } from '@platform/grpc';
import { ensureTopics, TaskWorker } from '@platform/kafka';
import { OutboxRelay } from '@platform/outbox';
import { startWhenKafkaIsReachable } from '@platform/runtime';
import { runLimitsOf } from './config.js';
import type { WorkflowsDependencies } from './deps.js';
import { FollowerSlots } from './data/follower-slots.js';
import { PlanCache } from './domain/runs/plan-cache.js';
import { RunEventsListener } from './events/run-events-listener.js';
import { RunExecutor } from './events/run-executor.js';
import { watchRunQueue } from './events/run-queue-gauges.js';
import { RUN_TASK, startRunReconciler, type RunTaskArgs } from './events/run-reconciler.js';
import { runStreamGrpc } from './grpc/run-stream-grpc.js';
import { workflowRunsGrpc } from './grpc/workflow-runs-grpc.js';

export interface RunsArea {
  listener: RunEventsListener;
  /** Undefined on an API-only replica (RUN_WORKER_ENABLED=false). */
  executor: RunExecutor | undefined;
  relay: OutboxRelay;
  services: ServiceRegistration[];
  stop(): Promise<void>;
}

/**
 * Runs (docs/workflows.md "Runs"): the API, the outbox relay that publishes `workflow.run` tasks,
 * facts and notification events, and on worker replicas the `workflow` queue's worker group
 * (`workers.workflow`), the executor that holds run leases, and the reconciler.
 */
export function startRunsArea(deps: WorkflowsDependencies): RunsArea {
  const { config, logger, pool, kafka } = deps;
  const listener = new RunEventsListener(pool, logger);
  // Open streams and `wait: true` calls per user, counted in Redis across replicas.
  const followers = new FollowerSlots(deps.redis);
  const relay = new OutboxRelay({ pool, producer: deps.producer, logger });
  // Every replica, worker or not, serves the (global) queue gauges.
  watchRunQueue(pool, logger);
  void relay.start();
  let executor: RunExecutor | undefined;
  let reconciler: { stop(): void } | undefined;
  if (config.RUN_WORKER_ENABLED) {
    const runExecutor = new RunExecutor({
      ...deps,
      leaseMs: config.RUN_LEASE_MS,
      concurrency: config.RUN_WORKER_CONCURRENCY,
      caps: { perUser: config.RUN_MAX_RUNNING_PER_USER, perTeam: config.RUN_MAX_RUNNING_PER_TEAM },
      pollMs: config.RUN_CLAIM_POLL_MS,
      limits: runLimitsOf(config),
      onRunEnded: (runId) => listener.wakeRun(runId),
    });
    executor = runExecutor;
    const worker = new TaskWorker(kafka, {
      queue: 'workflow',
      redis: deps.redis,
      logger,
      topicPrefix: config.QUEUE_TOPIC_PREFIX,
      concurrency: 4,
    }).register<Partial<RunTaskArgs>>(RUN_TASK, async (args, meta) => {
      // Only a prompt to claim: the fair claim decides which run starts, the lease keeps it
      // (run-executor.ts). A run this process committed was usually claimed here already.
      if (typeof args.run_id === 'string' && !runExecutor.claimedHere(meta.id))
        await runExecutor.submit(args.run_id);
    });
    startWhenKafkaIsReachable(kafka, logger, 'workflow queue worker', async () => {
      await ensureTopics(kafka, [worker.topic], { logger });
      await worker.start();
    });
    reconciler = startRunReconciler({
      pool,
      logger,
      leaseMs: config.RUN_LEASE_MS,
      intervalMs: config.RUN_RECONCILE_INTERVAL_MS,
      retentionHours: config.RUN_EVENTS_RETENTION_HOURS,
      topicPrefix: config.QUEUE_TOPIC_PREFIX,
      now: deps.now,
      resumeHere: (runId) => runExecutor.trySubmit(runId),
    });
  }
  return {
    listener,
    executor,
    relay,
    services: [
      workflowRunsGrpc({
        ...deps,
        listener,
        followers,
        plans: new PlanCache(),
        reserveClaim: () => executor?.reserveClaim() ?? null,
      }),
      runStreamGrpc({ ...deps, listener, followers }),
    ],
    async stop() {
      reconciler?.stop();
      await executor?.stop();
      await relay.stop();
      await listener.close();
    },
  };
}
