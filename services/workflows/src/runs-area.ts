import type { ServiceRegistration } from '@platform/grpc';
import { servesApi } from '@platform/config';
import { OutboxRelay } from '@platform/outbox';
import { runsRunWorker } from './config.js';
import type { WorkflowsDependencies } from './deps.js';
import { FollowerSlots } from './data/follower-slots.js';
import { PlanCache } from './domain/runs/plan-cache.js';
import { RunEventsListener } from './events/run-events-listener.js';
import type { RunExecutor } from './domain/runs/run-executor.js';
import { watchRunQueue } from './domain/runs/run-queue-gauges.js';
import { startRunWorker } from './events/run-worker.js';
import { runStreamGrpc } from './grpc/run-stream-grpc.js';
import { workflowRunsGrpc } from './grpc/workflow-runs-grpc.js';

export interface RunsArea {
  listener: RunEventsListener;
  /** Undefined on a replica without a run worker (PROCESS_ROLE=api, or RUN_WORKER_ENABLED=false). */
  executor: RunExecutor | undefined;
  relay: OutboxRelay;
  /** The runs API; none on PROCESS_ROLE=worker. */
  services: ServiceRegistration[];
  /** SIGTERM: the run worker (if any) stops claiming and hands its runs back after their node. */
  beginDrain(): void;
  stop(): Promise<void>;
}

/**
 * Runs (docs/workflows.md "Runs"): the API, the outbox relay that publishes `workflow.run` tasks,
 * facts and notification events (every role: API replicas write StartRun's tasks, workers the
 * runs' facts), and on worker replicas the run worker (events/run-worker.ts).
 */
export function startRunsArea(deps: WorkflowsDependencies): RunsArea {
  const { config, logger, pool } = deps;
  const listener = new RunEventsListener(pool, logger);
  // Open streams and `wait: true` calls per user, counted in Redis across replicas.
  const followers = new FollowerSlots(deps.redis);
  const relay = new OutboxRelay({ pool, producer: deps.producer, logger });
  // Every replica, worker or not, serves the (global) queue gauges.
  watchRunQueue(pool, logger);
  void relay.start();
  const worker = runsRunWorker(config) ? startRunWorker(deps, (runId) => listener.wakeRun(runId)) : undefined;
  const executor = worker?.executor;
  const api = [
    workflowRunsGrpc({
      ...deps,
      listener,
      followers,
      plans: new PlanCache(),
      reserveClaim: () => executor?.reserveClaim() ?? null,
    }),
    runStreamGrpc({ ...deps, listener, followers }),
  ];
  return {
    listener,
    executor,
    relay,
    services: servesApi(config.PROCESS_ROLE) ? api : [],
    beginDrain: () => worker?.beginDrain(),
    async stop() {
      await worker?.stop();
      await relay.stop();
      await listener.close();
    },
  };
}
