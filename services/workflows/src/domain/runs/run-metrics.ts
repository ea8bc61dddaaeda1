import { counter, gauge, histogram, LATENCY_BUCKETS, LONG_BUCKETS } from '@platform/telemetry';
import type { RunStatus } from './engine/contract.js';

/**
 * The runs' metrics (docs/operations.md "Runs"; the node histogram is in
 * domain/runs/engine/node-telemetry.ts). Labels from closed sets only: `status` a final run
 * status (success | failed | timeout). Never a run, workflow, user or team id.
 */
const runQueueSeconds = histogram({
  name: 'workflow_run_queue_seconds',
  help: 'From a run being queued (StartRun) to its first claim by a worker.',
  buckets: [...LATENCY_BUCKETS, 30, 60, 300],
});

const runDurationSeconds = histogram<'status'>({
  name: 'workflow_run_duration_seconds',
  help: 'From a run starting to its end, by final status (success | failed | timeout).',
  labelNames: ['status'],
  buckets: LONG_BUCKETS,
});

const runsInFlight = gauge({
  name: 'workflow_runs_in_flight',
  help: 'Runs this worker process is executing now.',
});

const leaseTakeovers = counter({
  name: 'workflow_run_lease_takeovers_total',
  help: 'Claims by this worker of a run another worker held (its lease expired or the reconciler handed it over).',
});

const FINAL: ReadonlySet<RunStatus> = new Set(['success', 'failed', 'timeout']);

/** A run's end, measured from `startedAt` (its first claim). */
export function observeRunEnd(status: RunStatus, startedAt: Date | null, endedAt: Date): void {
  if (!FINAL.has(status) || !startedAt) return;
  runDurationSeconds.observe({ status }, Math.max(0, endedAt.getTime() - startedAt.getTime()) / 1000);
}

/** A claim: the queue wait on a run's first claim, a lease takeover on any later one. */
export function observeClaim(run: { attempts: number; created_at: Date; started_at: Date | null }): void {
  if (run.attempts > 1) {
    leaseTakeovers.inc();
    return;
  }
  if (run.started_at) {
    runQueueSeconds.observe(Math.max(0, run.started_at.getTime() - run.created_at.getTime()) / 1000);
  }
}

/** A run starts / stops executing in this process (`workflow_runs_in_flight`). */
export function runsInFlightChange(delta: 1 | -1): void {
  runsInFlight.inc(delta);
}
