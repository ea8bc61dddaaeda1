import { randomUUID } from 'node:crypto';
import { requestContext } from '@platform/logger';
import { setMaxListeners } from 'node:events';
import { BusinessError, ErrorCode } from '@platform/errors';
import { postgresRunJournal, type PostgresRunJournal } from '../../data/run-journal.js';
import { finishRun } from '../../data/run-finish.js';
import { claimNextRun, type ClaimRequest, type RunningCaps } from '../../data/run-queue.js';
import { renewLease, type RunRow } from '../../data/runs-repository.js';
import type { WorkflowsDependencies } from '../../deps.js';
import { LeaseLostError, WorkerDrainingError, type RunContext, type RunOutcome } from './engine/contract.js';
import type { RunLimits } from './engine/limits.js';
import { executeRun } from './engine/execute-run.js';
import { planRun, type RunPlan } from './engine/plan.js';
import { observeClaim, observeRunEnd, runsInFlightChange } from './run-metrics.js';
import { runParentContext } from './run-trace.js';
import { withSpan } from '@platform/telemetry';

export type ExecutorDeps = Pick<WorkflowsDependencies, 'pool' | 'logger' | 'nodeModules' | 'now'> & {
  leaseMs: number;
  /** Runs executed at once by this process; a claim waits for a free slot. */
  concurrency: number;
  /** Running places per user and per team over all workers (run-queue.ts `claimNextRun`). */
  caps: RunningCaps;
  /** How often a free slot looks for a claimable run unprompted (RUN_CLAIM_POLL_MS). */
  pollMs: number;
  /** What one run may hold (config RUN_MAX_*). */
  limits: RunLimits;
  /** How long a node in flight may go on once the worker drains; then it is cut (RUN_WORKER_DRAIN_MS). */
  drainMs: number;
  /** Called once a run's end is committed here (wakes this process's `wait: true` calls at once). */
  onRunEnded?: (runId: string) => void;
};

/**
 * Executes runs for this process. Postgres is the queue: a worker with a free slot claims the next
 * run FAIRLY (run-queue.ts: handed-over runs first, then the user and team with the fewest runs
 * executing, under their running caps), with a lease, so of any number of workers exactly one
 * takes each run. A `workflow.run` task, a run finishing here and a poll every `pollMs` are only
 * prompts to claim; the task's own run may start later, behind another user's, when its user is
 * at its cap. Runs execute detached from the Kafka consumer, so a run of up to an hour never stalls
 * the partition or the consumer's session. A worker that dies leaves its lease to expire, and the
 * reconciler hands the run to another worker, which resumes it. A worker that stops (SIGTERM)
 * drains instead (`beginDrain`): it claims nothing more, lets each node in flight finish (at most
 * `drainMs`, then cuts it) and hands its runs back at once, for another worker to resume.
 */
export class RunExecutor {
  /** This process's lease-owner id: a restarted process is a new owner. */
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Promise<void>>();
  /** Slots taken by a claim in flight (not yet in `running`), so claims never over-fill. */
  private claiming = 0;
  // Hand-kept slots rather than p-limit: a slot is tried without waiting (`trySubmit`), reserved
  // for a claim made elsewhere (`reserveClaim`) and every waiter is released on drain.
  private readonly waiters: Array<() => void> = [];
  /** Aborted when the worker drains: no more claims; runs hand back before their next node. */
  private readonly draining = new AbortController();
  /** Aborted `drainMs` after the drain began: nodes still in flight are cut. */
  private readonly stopping = new AbortController();
  private drainTimer: NodeJS.Timeout | undefined;
  private filling: Promise<void> | undefined;
  private fillAgain = false;
  private readonly poll: NodeJS.Timeout;
  /** `<run_id>:<claims before>` of the runs claimed here lately: the id of the task that prompts that claim. */
  private readonly claimedTasks = new Set<string>();
  private readonly plans = new Map<string, RunPlan>();

  constructor(private readonly deps: ExecutorDeps) {
    // One abort listener per run in flight: more than Node's default 10 is expected, not a leak.
    setMaxListeners(deps.concurrency + 10, this.stopping.signal);
    this.poll = setInterval(() => void this.fill(), deps.pollMs);
    this.poll.unref();
  }

  get active(): number {
    return this.running.size;
  }

  private get free(): number {
    return this.deps.concurrency - this.running.size - this.claiming;
  }

  /**
   * A queue task's prompt: waits for a free slot (back-pressure on the consumer), then claims the
   * fairest claimable run (not necessarily `runId`). False when nothing could be claimed.
   */
  async submit(runId: string): Promise<boolean> {
    if (this.running.has(runId) || this.draining.signal.aborted) return false;
    while (this.free <= 0) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
      if (this.draining.signal.aborted) return false;
    }
    return this.claimOne();
  }

  /**
   * Claims and starts a run only when a slot is free now (the reconciler's direct hand-over: no
   * wait for Kafka to move a dead worker's partition); false when full or nothing claimable.
   */
  async trySubmit(runId: string): Promise<boolean> {
    if (this.free <= 0) return false;
    return this.submit(runId);
  }

  /**
   * A free slot held for the claim StartRun makes in its own statement (run-queue.ts
   * `startCountedRun`), so the run starts without the round trip through the outbox relay, Kafka
   * and the consumer; null when no slot is free (the run's task then prompts some worker).
   * `settle` hands over what was claimed (or null) and frees the hold; call it exactly once.
   */
  reserveClaim(): (ClaimRequest & { settle(run: RunRow | null): void }) | null {
    if (this.free <= 0 || this.draining.signal.aborted) return null;
    this.claiming += 1;
    let settled = false;
    return {
      owner: this.workerId,
      leaseMs: this.deps.leaseMs,
      caps: this.deps.caps,
      settle: (run) => {
        if (settled) return;
        settled = true;
        this.claiming -= 1;
        // Adopted even while draining: the run is then handed back at once, not left leased.
        if (run) this.adopt(run);
        else this.waiters.shift()?.();
      },
    };
  }

  /**
   * True when this process already claimed the run that task `taskId` (`<run_id>:<claims before>`,
   * run-reconciler.ts `enqueueRunTask`) prompts: claiming again would only look for another run,
   * which the finishing runs and the poll already do.
   */
  claimedHere(taskId: string): boolean {
    return this.claimedTasks.has(taskId);
  }

  /** Claims runs until the slots are full or none may start; one pass at a time per process. */
  fill(): Promise<void> {
    if (this.filling) {
      this.fillAgain = true;
      return this.filling;
    }
    this.filling = (async () => {
      do {
        this.fillAgain = false;
        while (this.free > 0 && !this.draining.signal.aborted && (await this.claimOne()));
      } while (this.fillAgain && this.free > 0);
    })()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'claiming queued runs failed'))
      .finally(() => {
        this.filling = undefined;
      });
    return this.filling;
  }

  private async claimOne(): Promise<boolean> {
    if (this.free <= 0 || this.draining.signal.aborted) return false;
    this.claiming += 1;
    let run: RunRow | null;
    try {
      run = await claimNextRun(this.deps.pool, this.workerId, this.deps.leaseMs, this.deps.caps);
    } finally {
      this.claiming -= 1;
    }
    if (!run) {
      this.waiters.shift()?.();
      return false;
    }
    this.adopt(run);
    return true;
  }

  /** Executes a run this worker has just claimed, in a slot of its own. */
  private adopt(run: RunRow): void {
    const runId = run.id;
    this.rememberClaim(`${run.id}:${run.attempts - 1}`);
    observeClaim(run);
    runsInFlightChange(1);
    const execution = this.execute(run).finally(() => {
      runsInFlightChange(-1);
      this.running.delete(runId);
      this.waiters.shift()?.();
      // The place this run held (its user's, its team's, this slot) is free: whoever is next.
      void this.fill();
    });
    this.running.set(runId, execution);
  }

  /**
   * The run's plan. A workflow's definition at a version is fixed (the version moves whenever the
   * definition changes as a JSON value; a snapshot is never rewritten), so plans are kept per
   * `<workflow_id>:<mode>:<version>` for the runs that follow (bounded; a miss just plans).
   */
  private planOf(run: RunRow): RunPlan {
    const key = `${run.workflow_id}:${run.mode}:${run.version}`;
    const known = this.plans.get(key);
    if (known) return known;
    const plan = planRun(run.definition, this.deps.nodeModules);
    this.plans.set(key, plan);
    if (this.plans.size > 256) this.plans.delete(this.plans.keys().next().value!);
    return plan;
  }

  private rememberClaim(taskId: string): void {
    this.claimedTasks.add(taskId);
    // Bounded: a task comes within seconds of its run's commit, so the latest few thousand do.
    if (this.claimedTasks.size > 4096) this.claimedTasks.delete(this.claimedTasks.values().next().value!);
  }

  /**
   * SIGTERM: claims nothing more from now on; each run finishes its node in flight and is handed
   * back before the next one that calls out; a node still in flight after `drainMs` is cut (its
   * run handed back too, the node started again by the next worker).
   */
  beginDrain(): void {
    if (this.draining.signal.aborted) return;
    this.draining.abort(new WorkerDrainingError());
    clearInterval(this.poll);
    for (const wake of this.waiters.splice(0)) wake();
    this.drainTimer = setTimeout(
      () => this.stopping.abort(new LeaseLostError('shutdown')),
      this.deps.drainMs,
    );
  }

  /** Drains (`beginDrain`, if not begun) and waits until every run here is finished or handed back. */
  async stop(): Promise<void> {
    this.beginDrain();
    await Promise.allSettled([...this.running.values()]);
    clearTimeout(this.drainTimer);
  }

  /**
   * Runs under the request context of the call that started the run, not of whatever request or
   * message prompted this claim: its logs, fact and notification events carry the starter's id.
   */
  private execute(run: RunRow): Promise<void> {
    const context = { requestId: run.request_id ?? requestContext.newRequestId(), userId: run.user_id };
    return requestContext.run(context, () =>
      // In the trace of the StartRun call (run-trace.ts): its nodes and their calls are children.
      withSpan(
        'workflow.run',
        {
          parent: runParentContext(run.trace_context),
          attributes: {
            'workflow.run.id': run.id,
            'workflow.id': run.workflow_id,
            'workflow.run.mode': run.mode,
            'workflow.run.attempt': run.attempts,
          },
        },
        async (span) => {
          const ended = await this.executeInContext(run);
          span.setAttribute('workflow.run.end', ended);
        },
      ),
    );
  }

  /** Executes the run; says how this worker's part ended: the run's status, `handed_over` or `interrupted`. */
  private async executeInContext(run: RunRow): Promise<string> {
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
    // The claim already wrote `run_started` (claim_next_workflow_run).
    const journal = postgresRunJournal(pool, run.id, this.workerId, {
      instant: (nodeType) => this.deps.nodeModules.get(nodeType)?.instant === true,
      firstClaim: run.attempts === 1,
    });
    try {
      if (run.attempts > 1) log.warn('resuming a run whose worker stopped (lease expired or handed back)');
      const outcome = await this.outcomeOf(run, journal, lease.signal);
      const endedAt = this.deps.now();
      await finishRun(pool, run, fence, outcome, endedAt, journal.takeForFinish());
      observeRunEnd(outcome.status, run.started_at, endedAt);
      this.deps.onRunEnded?.(run.id);
      log.info({ status: outcome.status, total_tokens: outcome.totalTokens }, 'run finished');
      return outcome.status;
    } catch (error) {
      if (this.draining.signal.aborted && isStopOf(error, lease.signal)) {
        return this.handBack(journal, log);
      }
      if (error instanceof LeaseLostError || lease.signal.aborted) {
        log.warn('run handed over: this worker no longer holds its lease');
        return 'handed_over';
      }
      // Postgres unreachable or the like: keep the lease until it expires; the reconciler then
      // hands the run to a worker (maybe this one) that resumes after the last finished node.
      log.error(
        { err: error },
        'run interrupted by an infrastructure failure; it resumes after its lease expires',
      );
      return 'interrupted';
    } finally {
      clearInterval(renew);
      this.stopping.signal.removeEventListener('abort', onStop);
    }
  }

  private async outcomeOf(
    run: RunRow,
    journal: PostgresRunJournal,
    signal: AbortSignal,
  ): Promise<RunOutcome> {
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
      plan = this.planOf(run);
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
    return executeRun({
      plan,
      run: context,
      journal,
      modules: this.deps.nodeModules,
      signal,
      drain: this.draining.signal,
      now: this.deps.now,
    });
  }

  /** A draining worker's run: released at once for another worker (the journal as it stands). */
  private async handBack(journal: PostgresRunJournal, log: typeof this.deps.logger): Promise<string> {
    try {
      const handed = await journal.handBack(this.deps.leaseMs);
      if (!handed) {
        log.warn('run handed over: this worker no longer holds its lease');
        return 'handed_over';
      }
      log.info('run handed back: this worker is draining');
      return 'handed_back';
    } catch (error) {
      log.warn({ err: error }, 'could not hand the run back; it resumes after its lease expires');
      return 'interrupted';
    }
  }
}

/** The run stopped because this worker drains or stops (not a failure of the run). */
function isStopOf(error: unknown, lease: AbortSignal): boolean {
  return error instanceof WorkerDrainingError || error instanceof LeaseLostError || lease.aborted;
}
