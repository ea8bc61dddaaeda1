import { ErrorCode } from '@platform/errors';
import {
  OutputNotStorableError,
  type NodeOutcome,
  type NodeModules,
  type RecordedNode,
  type RunContext,
  type RunJournal,
  type RunOutcome,
} from './contract.js';
import { ByteMeter, jsonBytes } from './limits.js';
import type { PlannedNode, RunPlan } from './plan.js';
import { countResume, tracedNode } from './node-telemetry.js';
import { nodeError, notStorableOutcome, runNode, runTimeoutOutcome } from './run-node.js';

interface NodeState {
  status: RecordedNode['status'];
  branch: string | null;
}

const FINISHED = new Set(['success', 'failed', 'skipped', 'timeout']);

/**
 * Walks a planned run in order (docs/workflows.md "Execution and resume"). What the journal
 * already holds is never executed again: finished nodes feed their outputs and branch to later
 * ones; a node recorded `running` was in flight when a worker died and is run again with the same
 * idempotency key, at most `limits.maxNodeResumes` times (then it fails `node_resume_limit`: a
 * node that keeps taking its worker down must not run, and repeat its side effects, until the
 * deadline). A node is skipped when every incoming edge comes from a skipped node or from a
 * branch its condition did not take. The first failed or timed-out node ends the run. A node
 * whose result the journal refuses as data (`OutputNotStorableError`) fails like any other.
 * `LeaseLostError` and an abort of `signal` (the worker stopping) propagate, leaving the journal
 * as it is for the next worker. Once `drain` is aborted (the worker drains), no node that calls out
 * is started here: the drain's reason propagates before it, so the node in flight finishes and the
 * worker hands the run back (instant nodes still run, so a run with only those left ends here).
 */
export async function executeRun(args: {
  plan: RunPlan;
  run: RunContext;
  journal: RunJournal;
  modules: NodeModules;
  signal: AbortSignal;
  /** Aborted when the worker drains: finish the node in flight, start no other that calls out. */
  drain?: AbortSignal;
  now?: () => Date;
}): Promise<RunOutcome> {
  const { plan, run, journal, modules, signal } = args;
  const now = args.now ?? (() => new Date());
  const recorded = new Map((await journal.recorded()).map((row) => [row.nodeId, row]));
  if (recorded.size > 0) countResume();
  const states = new Map<string, NodeState>();
  const variables: Record<string, unknown> = { inputs: run.inputs };
  let totalTokens = 0;
  let outputs: Record<string, unknown> = {};
  // What the run holds, as bytes of JSON: its inputs, then each node's outputs and streamed text.
  const budget = new ByteMeter('run', run.limits.maxRunBytes);
  budget.add(jsonBytes(run.inputs));

  const finish = (
    planned: PlannedNode,
    status: NodeState['status'],
    out: Record<string, unknown> | null,
    branch: string | null,
  ) => {
    states.set(planned.id, { status, branch });
    if (status !== 'success') return;
    variables[planned.id] = out ?? {};
    if (planned.id === plan.startId) variables.inputs = out ?? {};
    if (plan.endIds.includes(planned.id)) outputs = { ...outputs, ...(out ?? {}) };
  };

  for (const planned of plan.nodes) {
    const row = recorded.get(planned.id);
    if (row && FINISHED.has(row.status)) {
      totalTokens += row.tokens;
      budget.add(jsonBytes(row.outputs));
      finish(planned, row.status, row.outputs, row.branch);
      if (row.status === 'failed' || row.status === 'timeout') return ended(planned, row, totalTokens);
      continue;
    }
    const ref = { nodeId: planned.id, nodeType: planned.type, position: planned.position };
    if (isSkipped(planned, states)) {
      await journal.nodeSkipped(ref);
      finish(planned, 'skipped', null, null);
      continue;
    }
    if (signal.aborted) throw signal.reason ?? new Error('the worker stopped the run');
    if (now().getTime() >= run.deadline.getTime()) {
      return { status: 'timeout', error: runTimeoutOutcome(planned.node, run.deadline).error, totalTokens };
    }
    const module = modules.get(planned.type);
    if (!module) throw new Error(`no module for node type ${planned.type}`);
    if (args.drain?.aborted && module.instant !== true) throw args.drain.reason ?? new Error('draining');
    if (row?.status === 'running' && (row.attempts ?? 1) > run.limits.maxNodeResumes) {
      const outcome = resumeLimitOutcome(planned, row.attempts ?? 1, run.limits.maxNodeResumes);
      await journal.nodeFinished({ ...ref, outcome, startedAt: now(), durationMs: 0 });
      return { status: 'failed', error: outcome.error, totalTokens };
    }
    const startedAt = now();
    await journal.nodeStarted({ ...ref, startedAt });
    const attempt = row?.status === 'running' ? (row.attempts ?? 1) + 1 : 1;
    const { outcome: ran, runTimedOut } = await tracedNode(planned, attempt, () =>
      runNode({
        module,
        node: planned.node,
        input: {
          node: planned.node,
          variables: { ...variables },
          run,
          idempotencyKey: `${run.runId}:${planned.id}`,
        },
        journal,
        signal,
        now,
        budget,
      }),
    );
    const durationMs = Math.max(0, now().getTime() - startedAt.getTime());
    const outcome = await recordFinished(journal, { ...ref, outcome: ran, startedAt, durationMs }, planned);
    totalTokens += outcome.tokens ?? 0;
    finish(planned, outcome.status, outcome.outputs, outcome.branch ?? null);
    if (outcome.status !== 'success') {
      const timedOut = runTimedOut && outcome === ran;
      return { status: timedOut ? 'timeout' : 'failed', error: outcome.error, totalTokens };
    }
  }
  return { status: 'success', outputs, totalTokens };
}

type FinishedNode = Parameters<RunJournal['nodeFinished']>[0];

/**
 * Writes the node's final row; when the store refuses its outputs or error as data (a NUL
 * character in a string), the node is recorded failed `output_not_storable` instead, so the run
 * ends rather than being resumed (and its side effects repeated) until its deadline.
 */
async function recordFinished(
  journal: RunJournal,
  finished: FinishedNode,
  planned: PlannedNode,
): Promise<NodeOutcome> {
  try {
    await journal.nodeFinished(finished);
    return finished.outcome;
  } catch (error) {
    if (!(error instanceof OutputNotStorableError)) throw error;
    const outcome = notStorableOutcome(planned.node, error);
    await journal.nodeFinished({ ...finished, outcome });
    return outcome;
  }
}

function resumeLimitOutcome(planned: PlannedNode, attempts: number, limit: number): NodeOutcome {
  return {
    status: 'failed',
    outputs: {},
    error: nodeError(
      planned.node,
      ErrorCode.BAD_REQUEST,
      `the node was in flight ${attempts} times when its worker stopped; it is not started again (at most ${limit} resumes)`,
      { reason: 'node_resume_limit', attempts, limit },
    ),
  };
}

function isSkipped(planned: PlannedNode, states: Map<string, NodeState>): boolean {
  if (planned.incoming.length === 0) return false;
  return planned.incoming.every((edge) => {
    const source = states.get(edge.source);
    if (!source || source.status === 'skipped') return true;
    return source.branch !== null && edge.sourceHandle !== source.branch;
  });
}

/** A run whose failed node was recorded before the worker died: it ends as it would have. */
function ended(planned: PlannedNode, row: RecordedNode, totalTokens: number): RunOutcome {
  const error =
    row.error ?? nodeError(planned.node, ErrorCode.INTERNAL_ERROR, `the node ended ${row.status}`);
  const runTimedOut = row.status === 'timeout' && error.data?.reason === 'run_timeout';
  return {
    status: runTimedOut ? 'timeout' : 'failed',
    error: { ...error, node_id: planned.id },
    totalTokens,
  };
}
