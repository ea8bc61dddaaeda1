import { withTransaction } from '@platform/db';
import { BusinessError } from '@platform/errors';
import type { Principal } from '@platform/grpc';
import { findSnapshot } from '../../data/snapshots-repository.js';
import { findRunById, insertRun, type RunRow } from '../../data/runs-repository.js';
import type { WorkflowsDependencies } from '../../deps.js';
import { enqueueRunTask } from '../../events/run-reconciler.js';
import type { RunEventsListener } from '../../events/run-events-listener.js';
import { loadWorkflowFor, requireCaller } from '../workflow-access.js';
import type { RunMode } from './engine/contract.js';
import { inputErrors, planRun } from './engine/plan.js';

export type StartRunDeps = Pick<WorkflowsDependencies, 'pool' | 'teams' | 'nodeModules' | 'config'> & {
  listener: RunEventsListener;
};

export interface StartRunInput {
  workflowId: string;
  inputsJson: string;
  mode: string;
  wait: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseInputs(json: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw BusinessError.validation({ inputs: ['must be a JSON object'] });
  }
  if (!isRecord(value)) throw BusinessError.validation({ inputs: ['must be an object'] });
  return value;
}

function parseMode(mode: string): RunMode {
  if (mode === '' || mode === 'production') return 'production';
  if (mode === 'debug') return 'debug';
  throw BusinessError.validation({ mode: ['must be one of: production, debug'] });
}

/**
 * `POST /workflows/{id}/run`: production runs the latest published snapshot, debug the draft; the
 * definition is copied into the run (its version is pinned), checked (`planRun`), the inputs
 * checked against the start node, and the run row and its `workflow.run` task committed together
 * (the outbox publishes the task, also after a Kafka outage). `wait`: answers when the run ends or
 * after RUN_WAIT_LIMIT_MS, whichever comes first.
 */
export async function startRun(deps: StartRunDeps, principal: Principal | undefined, input: StartRunInput) {
  const caller = requireCaller(principal);
  const mode = parseMode(input.mode);
  const inputs = parseInputs(input.inputsJson);
  const workflow = await loadWorkflowFor(deps, caller, input.workflowId, 'read');
  // The stored JSON text, copied into the run byte for byte; parsed only to plan and check it.
  let definitionText = workflow.definition;
  let version = workflow.version;
  if (mode === 'production') {
    const snapshot = workflow.published_version
      ? await findSnapshot(deps.pool, workflow.id, workflow.published_version)
      : null;
    if (!snapshot) throw BusinessError.named('workflow_not_published');
    definitionText = snapshot.definition;
    version = snapshot.version;
  }
  const plan = planRun(JSON.parse(definitionText) as unknown, deps.nodeModules);
  const problems = inputErrors(plan, inputs);
  if (Object.keys(problems).length > 0) throw BusinessError.validation(problems);
  const teamId = workflow.team_id ?? (await deps.teams.defaultTeamOf(workflow.owner_id));
  if (!teamId) {
    throw BusinessError.named('workflow_node_not_runnable', {
      data: { node_id: null, reason: 'the workflow has no team and its owner belongs to no team' },
    });
  }
  const byKey = caller.auth_method === 'api_key' && caller.api_key_id;
  const run = await withTransaction(deps.pool, async (client) => {
    const row = await insertRun(client, {
      workflow_id: workflow.id,
      owner_id: workflow.owner_id,
      team_id: teamId,
      mode,
      version,
      definition: definitionText,
      inputs,
      trigger_type: byKey ? 'api_key' : 'user',
      trigger_id: byKey ? caller.api_key_id! : caller.user_id,
      user_id: caller.user_id,
      timeout_seconds: plan.timeoutSeconds,
    });
    await enqueueRunTask(client, row.id, 0, deps.config.QUEUE_TOPIC_PREFIX);
    return row;
  });
  return input.wait ? waitForEnd(deps, run, deps.config.RUN_WAIT_LIMIT_MS) : run;
}

const TERMINAL = new Set(['success', 'failed', 'timeout']);

/** The run once it is terminal, or as it stands when `limitMs` has passed. */
async function waitForEnd(deps: StartRunDeps, run: RunRow, limitMs: number): Promise<RunRow> {
  let latest = run;
  let wake: () => void = () => undefined;
  const unfollow = deps.listener.follow(run.id, () => wake());
  const deadline = Date.now() + limitMs;
  try {
    while (!TERMINAL.has(latest.status)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      latest = (await findRunById(deps.pool, run.id)) ?? latest;
    }
  } finally {
    unfollow();
  }
  return latest;
}
