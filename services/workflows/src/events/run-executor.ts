import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { withTransaction } from '@platform/db';
import { BusinessError, ErrorCode } from '@platform/errors';
import { appendEvent, postgresRunJournal } from '../data/run-journal.js';
import { finishRun } from '../data/run-finish.js';
import { claimRun, renewLease, type RunRow } from '../data/runs-repository.js';
import type { WorkflowsDependencies } from '../deps.js';
import { LeaseLostError, type RunContext, type RunOutcome } from '../domain/runs/engine/contract.js';
import type { RunLimits } from '../domain/runs/engine/limits.js';
import { executeRun } from '../domain/runs/engine/execute-run.js';
import { planRun } from '../domain/runs/engine/plan.js';

export type ExecutorDeps = Pick<WorkflowsDependencies, 'pool' | 'logger' | 'nodeModules' | 'now'> & {
  leaseMs: number;
  /** Runs executed at once by this process; a claim waits for a free slot. */
  concurrency: number;
  /** What one run may hold (config RUN_MAX_*). */
  limits: RunLimits;
};

/**
 * Executes runs for this process. The queue task only hands a run id over: the run is claimed with
 * a lease in Postgres (one winner among any number of workers and redeliveries) and executed
 * detached from the Kafka consumer, so a run of up to an hour never stalls the partition or the
 * consumer's session. Nothing depends on the message after the claim: a worker that dies leaves
 * its lease to expire, and the reconciler hands the run to another worker, which resumes it.
 */
export class RunExecutor {
  /** This process's lease-owner id: a restarted process is a new owner. */
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Promise<void>>();
  private readonly waiters: Array<() => void> = [];
  private readonly stopping = new AbortController();

  constructor(private readonly deps: ExecutorDeps) {
    // One abort listener per run in flight: more than Node's default 10 is expected, not a leak.
    setMaxListeners(deps.concurrency + 10, this.stopping.signal);
  }

  get active(): number {
    return this.running.size;
  }

  /** Claims the run when nobody holds a live lease and starts it; resolves once started (or not). */
  async submit(runId: string): Promise<boolean> {
    if (this.running.has(runId) || this.stopping.signal.aborted) return false;
    while (this.running.size >= this.deps.concurrency) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const run = await claimRun(this.deps.pool, runId, this.workerId, this.deps.leaseMs);
    if (!run) return false;
    const execution = this.execute(run).finally(() => {
      this.running.delete(runId);
      this.waiters.shift()?.();
    });
    this.running.set(runId, execution);
    return true;
  }

  /**
   * Claims and starts the run only when a slot is free now (the reconciler's direct hand-over:
   * no wait for Kafka to move a dead worker's partition); false when full or not claimable.
   */
  async trySubmit(runId: string): Promise<boolean> {
    if (this.running.size >= this.deps.concurrency) return false;
    return this.submit(runId);
  }

  /** Stops renewing leases and waits for runs in flight (they end at their next journal write). */
  async stop(): Promise<void> {
    this.stopping.abort(new LeaseLostError('shutdown'));
    await Promise.allSettled([...this.running.values()]);
  }

  private async execute(run: RunRow): Promise<void> {
    const { pool, logger } = this.deps;
    const fence = { owner: this.workerId };
    const log = logger.child({ run_id: run.id, workflow_id: run.workflow_id, attempt: run.attempts });
    const lease = new AbortController();
    const onStop = () => lease.abort(this.stopping.signal.reason);
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    const renew = setInterval(
      () => {
        renewLease(pool, run.id, this.workerId, this.deps.leaseMs).then(
          (held) => {
            if (!held) lease.abort(new LeaseLostError(run.id));
          },
          (error: unknown) => log.warn({ err: error }, 'lease renewal failed; retrying'),
        );
      },
      Math.max(50, Math.floor(this.deps.leaseMs / 3)),
    );
    try {
      await withTransaction(pool, (client) =>
        appendEvent(client, run.id, fence, 'run_started', {
          run_id: run.id,
          workflow_id: run.workflow_id,
          version: run.version,
          mode: run.mode,
          attempt: run.attempts,
          worker: this.workerId,
        }),
      );
      if (run.attempts > 1) log.warn('resuming a run whose worker stopped (lease expired)');
      const outcome = await this.outcomeOf(run, lease.signal);
      await finishRun(pool, run, fence, outcome, this.deps.now());
      log.info({ status: outcome.status, total_tokens: outcome.totalTokens }, 'run finished');
    } catch (error) {
      if (error instanceof LeaseLostError || lease.signal.aborted) {
        log.warn('run handed over: this worker no longer holds its lease');
        return;
      }
      // Postgres unreachable or the like: keep the lease until it expires; the reconciler then
      // hands the run to a worker (maybe this one) that resumes after the last finished node.
      log.error(
        { err: error },
        'run interrupted by an infrastructure failure; it resumes after its lease expires',
      );
    } finally {
      clearInterval(renew);
      this.stopping.signal.removeEventListener('abort', onStop);
    }
  }

  private async outcomeOf(run: RunRow, signal: AbortSignal): Promise<RunOutcome> {
    const startedAt = run.started_at ?? this.deps.now();
    const context: RunContext = {
      runId: run.id,
      workflowId: run.workflow_id,
      ownerId: run.owner_id,
      teamId: run.team_id,
      userId: run.user_id,
      mode: run.mode,
      inputs: run.inputs,
      deadline: new Date(startedAt.getTime() + run.timeout_seconds * 1000),
      limits: this.deps.limits,
    };
    let plan;
    try {
      plan = planRun(run.definition, this.deps.nodeModules);
    } catch (error) {
      // The definition was checked at start; a node type this worker lacks (an older replica).
      const business = error instanceof BusinessError ? error : new BusinessError(ErrorCode.INTERNAL_ERROR);
      return {
        status: 'failed',
        totalTokens: 0,
        error: {
          code: business.code,
          message: business.message,
          data: business.data as Record<string, unknown>,
        },
      };
    }
    const journal = postgresRunJournal(this.deps.pool, run.id, this.workerId);
    return executeRun({
      plan,
      run: context,
      journal,
      modules: this.deps.nodeModules,
      signal,
      now: this.deps.now,
    });
  }
}
