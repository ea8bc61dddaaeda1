import { withTransaction, type Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { buildTask } from '@platform/kafka';
import { enqueueEvent, type OutboxEvent, type Queryable } from '@platform/outbox';
import { finishRun } from '../../data/run-finish.js';
import { findRunById, HANDOVER, purgeRunEvents, takeStrandedRuns } from '../../data/runs-repository.js';
import { LeaseLostError } from './engine/contract.js';
import { observeRunEnd } from './run-metrics.js';

export const RUN_TASK = 'workflow.run';

export interface RunTaskArgs {
  run_id: string;
}

export interface ReconcilerOptions {
  pool: Pool;
  logger: Logger;
  leaseMs: number;
  intervalMs: number;
  retentionHours: number;
  topicPrefix?: string;
  now: () => Date;
  /**
   * This replica's executor: a stranded run is resumed here at once when it has a free slot;
   * otherwise (or without one) it goes back on the queue for any worker.
   */
  resumeHere?: (runId: string) => Promise<boolean>;
}

/**
 * A run's `workflow.run` task as the outbox stores it. The task id carries the claim count, so a
 * hand-over after a lost lease is a new task and the worker's processed-store never drops it as a
 * repeat of the first.
 */
export function runTask(runId: string, attempts: number, topicPrefix?: string): OutboxEvent {
  const task = buildTask<RunTaskArgs>(
    'workflow',
    RUN_TASK,
    { run_id: runId },
    {
      id: `${runId}:${attempts}`,
      key: runId,
      topicPrefix,
    },
  );
  return { topic: task.topic, key: task.key, type: task.type, id: task.id, value: task.value };
}

/** Writes a run's `workflow.run` task to the outbox (in the caller's transaction when `db` is one). */
export async function enqueueRunTask(
  db: Queryable,
  runId: string,
  attempts: number,
  topicPrefix?: string,
): Promise<void> {
  await enqueueEvent(db, runTask(runId, attempts, topicPrefix));
}

/** One pass: stranded runs handed over (or ended `timeout` past their deadline), old event logs purged. */
export async function reconcileRuns(
  options: ReconcilerOptions,
): Promise<{ handedOver: number; timedOut: number }> {
  const { pool, logger, leaseMs } = options;
  const stranded = await withTransaction(pool, (client) => takeStrandedRuns(client, leaseMs, 100));
  let handedOver = 0;
  let timedOut = 0;
  for (const entry of stranded) {
    if (entry.past_deadline) {
      const run = await findRunById(pool, entry.id);
      if (!run) continue;
      try {
        const endedAt = options.now();
        await finishRun(
          pool,
          run,
          { owner: HANDOVER },
          {
            status: 'timeout',
            totalTokens: Number(run.total_tokens),
            error: {
              code: 1002,
              message: 'The run exceeded its time limit',
              data: { reason: 'run_timeout' },
            },
          },
          endedAt,
        );
        observeRunEnd('timeout', run.started_at, endedAt);
        timedOut += 1;
      } catch (error) {
        if (!(error instanceof LeaseLostError)) throw error;
      }
      continue;
    }
    // Straight to this replica's executor when it has room: a task on the queue can sit on the dead
    // worker's partition until Kafka's session timeout moves it (tens of seconds).
    const resumed = await options.resumeHere?.(entry.id).catch(() => false);
    if (!resumed) await enqueueRunTask(pool, entry.id, entry.attempts, options.topicPrefix);
    handedOver += 1;
  }
  if (stranded.length > 0)
    logger.warn({ handed_over: handedOver, timed_out: timedOut }, 'stranded runs reconciled');
  const purged = await purgeRunEvents(pool, options.retentionHours, 1000);
  if (purged > 0) logger.info({ purged_events: purged }, 'old run event logs purged');
  return { handedOver, timedOut };
}

/** Runs `reconcileRuns` every `intervalMs` on this replica (safe on all: SKIP LOCKED). */
export function startRunReconciler(options: ReconcilerOptions): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcileRuns(options)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'run reconciler pass failed'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
