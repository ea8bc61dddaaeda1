import type { notificationEventsV1, telemetryEventsV1 } from '@platform/contracts';
import { withTransaction, type Pool, type PoolClient } from '@platform/db';
import { Topics } from '@platform/kafka';
import { enqueueEvents } from '@platform/outbox';
import type { RunOutcome } from '../domain/runs/engine/contract.js';
import { appendEvents, type RunEvent, type WriteFence } from './run-events.js';
import { listNodeExecutions, type RunRow } from './runs-repository.js';

/**
 * Ends a run in ONE transaction: the node rows the journal held back (`held`, instant nodes) and
 * their events, the `run_finished` event (always the log's last), the terminal row, and in one
 * outbox statement the fact on `platform.workflow-runs` and the owner's
 * `workflow.run_success|run_failed` notification event. Fenced like every journal write: a worker
 * that lost its lease (or a reconciler racing a live worker) changes nothing and gets
 * `LeaseLostError`.
 */
export async function finishRun(
  pool: Pool,
  run: RunRow,
  fence: WriteFence,
  outcome: RunOutcome,
  now: Date,
  held: (client: PoolClient) => Promise<RunEvent[]> = async () => [],
): Promise<void> {
  await withTransaction(pool, async (client) => {
    const startedAt = run.started_at ?? now;
    const totalDurationMs = Math.max(0, now.getTime() - startedAt.getTime());
    const earlier = await held(client);
    await appendEvents(client, run.id, fence, [
      ...earlier,
      {
        type: 'run_finished',
        data: {
          status: outcome.status,
          outputs: outcome.status === 'success' ? (outcome.outputs ?? {}) : null,
          error: outcome.error ?? null,
          total_duration_ms: totalDurationMs,
          total_tokens: outcome.totalTokens,
        },
      },
    ]);
    await client.query(
      `UPDATE workflow_runs
          SET status = $2, outputs = $3::jsonb, error = $4::jsonb, total_tokens = $5, finished_at = $6,
              lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1`,
      [
        run.id,
        outcome.status,
        outcome.status === 'success' ? JSON.stringify(outcome.outputs ?? {}) : null,
        outcome.error ? JSON.stringify(outcome.error) : null,
        outcome.totalTokens,
        now,
      ],
    );
    const nodes = (await listNodeExecutions(client, [run.id])).get(run.id) ?? [];
    const fact: telemetryEventsV1.WorkflowRun = {
      id: run.id,
      workflow_id: run.workflow_id,
      user_id: run.user_id,
      team_id: run.team_id,
      status: outcome.status,
      total_duration_ms: totalDurationMs,
      total_tokens: outcome.totalTokens,
      started_at: startedAt.toISOString(),
      finished_at: now.toISOString(),
      nodes: nodes.map((node) => ({
        node_id: node.node_id,
        node_type: node.node_type,
        status: node.status,
        duration_ms: Number(node.duration_ms),
        tokens: Number(node.tokens),
        model: node.model ?? '',
      })),
      mode: run.mode,
      version: run.version,
      trigger_type: run.trigger_type,
      trigger_id: run.trigger_id,
      error_code: outcome.error?.code ?? 0,
      error_message: outcome.error?.message ?? '',
      error_node_id: outcome.error?.node_id ?? '',
    };
    const notice = runNotice(run, outcome, now);
    await enqueueEvents(client, [
      {
        topic: Topics.WORKFLOW_RUNS,
        key: run.workflow_id,
        type: 'workflow.run_finished',
        id: `workflow-run:${run.id}`,
        value: fact,
      },
      {
        topic: Topics.NOTIFICATION_EVENTS,
        key: run.owner_id,
        type: notice.type,
        id: notice.id,
        value: notice,
      },
    ]);
  });
}

function runNotice(run: RunRow, outcome: RunOutcome, now: Date): notificationEventsV1.NotificationEvent {
  const success = outcome.status === 'success';
  const type = success ? 'workflow.run_success' : 'workflow.run_failed';
  return {
    // Deterministic: a redelivered event never creates a second notification.
    id: `${type}:${run.id}`,
    type,
    scope: 'user',
    team_id: '',
    user_id: run.owner_id,
    title: success ? 'Workflow run succeeded' : 'Workflow run failed',
    content: success
      ? `Run ${run.id} of workflow ${run.workflow_id} succeeded.`
      : `Run ${run.id} of workflow ${run.workflow_id} ended ${outcome.status}: ${outcome.error?.message ?? ''}`.trim(),
    level: success ? 'low' : 'high',
    data: {
      run_id: run.id,
      workflow_id: run.workflow_id,
      status: outcome.status,
      mode: run.mode,
      version: run.version,
      ...(outcome.error ? { error_code: outcome.error.code, error_message: outcome.error.message } : {}),
    },
    link_url: `/workflows/${run.workflow_id}/runs/${run.id}`,
    occurred_at: now.toISOString(),
    source_service: 'workflows',
  };
}
