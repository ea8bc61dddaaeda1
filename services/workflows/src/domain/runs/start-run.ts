import { randomUUID } from 'node:crypto';
import { requestContext } from '@platform/logger';
import { requirePrincipal } from '@platform/rbac';
import { injectTraceContext } from '@platform/telemetry';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findSnapshot } from '../../data/snapshots-repository.js';
import type { FollowerSlots, HeldPlace } from '../../data/follower-slots.js';
import { startCountedRun, UnfinishedLimitError, type ClaimRequest } from '../../data/run-queue.js';
import { findRunById, type RunRow } from '../../data/runs-repository.js';
import type { WorkflowsDependencies } from '../../deps.js';
import { runTask } from './run-reconciler.js';
import type { RunEventsFeed } from './run-ports.js';
import { loadWorkflowFor } from '../workflow-access.js';
import type { RunMode } from './engine/contract.js';
import { inputErrors, planRun } from './engine/plan.js';
import { limitReached } from './fairness-limits.js';
import type { PlanCache, PlannedSnapshot } from './plan-cache.js';
import type { WorkflowRow } from '../../data/workflows-repository.js';

export type StartRunDeps = Pick<WorkflowsDependencies, 'pool' | 'teams' | 'nodeModules' | 'config'> & {
  listener: RunEventsFeed;
  followers: FollowerSlots;
  /** This replica's run worker: a free slot it holds for the claim StartRun makes (none on an API-only replica). */
  reserveClaim?: () => (ClaimRequest & { settle(run: RunRow | null): void }) | null;
  /** Published snapshots planned by this process (none: each start reads and plans). */
  plans?: PlanCache;
};

export interface StartRunInput {
  workflowId: string;
  /** The parsed JSON inputs; undefined = `{}`. */
  inputs: unknown;
  mode: RunMode;
  wait: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contract's JSON value may be any JSON; the inputs must be an object. */
function checkInputs(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw BusinessError.validation({ inputs: ['must be an object'] });
  return value;
}

/**
 * `POST /workflows/{id}/run`: production runs the latest published snapshot, debug the draft; the
 * definition is copied into the run (its version is pinned), checked (`planRun`), the inputs
 * checked against the start node, and the run row and its `workflow.run` task committed together
 * (the outbox publishes the task, also after a Kafka outage). `wait`: answers when the run ends or
 * after RUN_WAIT_LIMIT_MS, whichever comes first.
 */
export async function startRun(deps: StartRunDeps, principal: Principal | undefined, input: StartRunInput) {
  const caller = requirePrincipal(principal);
  const mode = input.mode;
  const inputs = checkInputs(input.inputs);
  const workflow = await loadWorkflowFor(deps, caller, input.workflowId, 'read');
  const { definitionText, version, plan } = await definitionToRun(deps, workflow, mode);
  const problems = inputErrors(plan, inputs);
  if (Object.keys(problems).length > 0) throw BusinessError.validation(problems);
  const teamId = workflow.team_id ?? (await deps.teams.defaultTeamOf(workflow.owner_id));
  if (!teamId) {
    throw BusinessError.named('workflow_node_not_runnable', {
      data: { node_id: null, reason: 'the workflow has no team and its owner belongs to no team' },
    });
  }
  // A waiting call holds a place from before the run exists: past the cap nothing is started.
  const place = input.wait ? await takeWaitPlace(deps, caller.user_id) : undefined;
  try {
    const run = await insertCounted(deps, caller, {
      workflow,
      teamId,
      mode,
      version,
      definitionText,
      inputs,
      plan,
    });
    return input.wait ? await waitForEnd(deps, run, deps.config.RUN_WAIT_LIMIT_MS) : run;
  } finally {
    // Not awaited: the answer need not wait for Redis; the place is free a moment later.
    void place?.release();
  }
}

/**
 * What the run executes: production the latest published snapshot (planned once per process:
 * `PlanCache`), debug the draft. The stored JSON text is copied into the run byte for byte; it is
 * parsed only to plan and check it.
 */
async function definitionToRun(
  deps: StartRunDeps,
  workflow: WorkflowRow,
  mode: RunMode,
): Promise<PlannedSnapshot> {
  if (mode === 'debug') {
    const plan = planRun(JSON.parse(workflow.definition) as unknown, deps.nodeModules);
    return { definitionText: workflow.definition, version: workflow.version, plan };
  }
  if (!workflow.published_version) throw BusinessError.named('workflow_not_published');
  const cached = deps.plans?.get(workflow.id, workflow.published_version);
  if (cached) return cached;
  const snapshot = await findSnapshot(deps.pool, workflow.id, workflow.published_version);
  if (!snapshot) throw BusinessError.named('workflow_not_published');
  const planned = {
    definitionText: snapshot.definition,
    version: snapshot.version,
    plan: planRun(JSON.parse(snapshot.definition) as unknown, deps.nodeModules),
  };
  deps.plans?.set(workflow.id, planned);
  return planned;
}

async function takeWaitPlace(deps: StartRunDeps, userId: string): Promise<HeldPlace> {
  const limit = deps.config.RUN_WAITS_PER_USER;
  const place = await deps.followers.take('waits', userId, limit);
  if (!place) throw limitReached('waiting_calls', 'user', limit);
  return place;
}

interface RunToInsert {
  workflow: { id: string; owner_id: string; team_id: string | null };
  teamId: string;
  mode: RunMode;
  version: number;
  definitionText: string;
  inputs: Record<string, unknown>;
  plan: { timeoutSeconds: number };
}

/**
 * The run row and its task in one call, after counting the starter's and the team's unfinished
 * runs under their locks (run-queue.ts `startCountedRun`): past either limit nothing is written.
 */
async function insertCounted(deps: StartRunDeps, caller: Principal, run: RunToInsert): Promise<RunRow> {
  const { config } = deps;
  const byKey = caller.auth_method === 'api_key' && caller.api_key_id;
  const id = randomUUID();
  const slot = deps.reserveClaim?.() ?? undefined;
  let claimed: RunRow | null = null;
  try {
    const written = await startCountedRun(
      deps.pool,
      {
        id,
        workflow_id: run.workflow.id,
        owner_id: run.workflow.owner_id,
        team_id: run.teamId,
        mode: run.mode,
        version: run.version,
        definition: run.definitionText,
        inputs: run.inputs,
        trigger_type: byKey ? 'api_key' : 'user',
        trigger_id: byKey ? caller.api_key_id! : caller.user_id,
        user_id: caller.user_id,
        timeout_seconds: run.plan.timeoutSeconds,
        workflow_team_id: run.workflow.team_id,
        request_id: requestContext.current()?.requestId ?? null,
        trace_context: startersTraceparent(),
      },
      { perUser: config.RUN_MAX_UNFINISHED_PER_USER, perTeam: config.RUN_MAX_UNFINISHED_PER_TEAM },
      runTask(id, 0, config.QUEUE_TOPIC_PREFIX),
      slot,
    );
    claimed = written.claimed;
    return written.started;
  } catch (error) {
    if (!(error instanceof UnfinishedLimitError)) throw error;
    const limit =
      error.scope === 'user' ? config.RUN_MAX_UNFINISHED_PER_USER : config.RUN_MAX_UNFINISHED_PER_TEAM;
    throw limitReached('unfinished_runs', error.scope, limit);
  } finally {
    slot?.settle(claimed);
  }
}

/** The `traceparent` of this StartRun call's span (null outside a trace): the run's execution continues it. */
function startersTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  return carrier.traceparent ?? null;
}

const TERMINAL = new Set(['success', 'failed', 'timeout']);

/**
 * The run once it is terminal, or as it stands when `limitMs` has passed. A wake-up that comes
 * while the run is being re-read is kept (`woken`), not lost: the finish often lands then, and a
 * lost one would wait for the listener's safety wake (up to 2 s).
 */
async function waitForEnd(deps: StartRunDeps, run: RunRow, limitMs: number): Promise<RunRow> {
  let latest = run;
  let woken = false;
  let wake: () => void = () => undefined;
  const unfollow = deps.listener.follow(run.id, () => {
    woken = true;
    wake();
  });
  const deadline = Date.now() + limitMs;
  try {
    while (!TERMINAL.has(latest.status)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      woken = false;
      latest = (await findRunById(deps.pool, run.id)) ?? latest;
    }
  } finally {
    unfollow();
  }
  return latest;
}
