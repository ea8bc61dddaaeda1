import { counter, gauge, histogram, LATENCY_BUCKETS } from '@platform/telemetry';
import { FAILURE_REASONS, type RunResult } from '@platform/sandbox';

/**
 * The sandbox worker's metrics (docs/operations.md "Sandbox worker"). `outcome` is a closed set:
 * `ok`, one of the sandbox's failure reasons, or `expired` (a task picked up after its deadline).
 */
const tasks = counter<'outcome'>({
  name: 'sandbox_tasks_total',
  help: `Code-node tasks this sandbox worker handled, by outcome (ok | expired | ${FAILURE_REASONS.join(' | ')}).`,
  labelNames: ['outcome'],
});

const taskSeconds = histogram({
  name: 'sandbox_task_seconds',
  help: 'Time one code-node task spent in the sandbox (waiting for a free isolate included).',
  buckets: [...LATENCY_BUCKETS, 30],
});

const inFlight = gauge({
  name: 'sandbox_tasks_in_flight',
  help: 'Code-node tasks this sandbox worker holds now (running, or waiting for a free isolate).',
});

/** Counts a task in flight until the returned function is called. */
export function taskStarted(): () => void {
  inFlight.inc();
  return () => inFlight.dec();
}

export function observeTask(result: RunResult, seconds: number): void {
  tasks.inc({ outcome: result.ok ? 'ok' : result.reason });
  taskSeconds.observe(seconds);
}

export function countExpiredTask(): void {
  tasks.inc({ outcome: 'expired' });
}
