import type { notificationEventsV1, telemetryEventsV1 } from '@platform/contracts';
import type { Pool } from '@platform/db';
import { Topics } from '@platform/kafka';
import { requestContext } from '@platform/logger';
import { OUTBOX_CHANNEL, outboxTraceContext, type OutboxEvent } from '@platform/outbox';
import { LeaseLostError, type RunOutcome } from '../domain/runs/engine/contract.js';
import { NODE_ROW_COLUMNS, NODE_ROWS_UPSERT } from './node-rows.js';
import {
  fenceSql,
  fenceValue,
  preparedPerFence,
  RUN_EVENTS_CHANNEL,
  type RunEvent,
  type WriteFence,
} from './run-events.js';
import { listNodeExecutions, type RunRow } from './runs-repository.js';

/** A node as the run's fact lists it (`telemetryEventsV1.WorkflowRun.nodes`), with its place in the order. */
export interface FactNode {
  node_id: string;
  node_type: string;
  position: number;
  status: string;
  duration_ms: number;
  tokens: number;
  model: string;
}

/** What the worker's journal still holds at the finish (data/run-journal.ts `takeForFinish`). */
export interface FinishWrites {
  /** Held node rows as `writeNodeRows` takes them (`[]`: none). */
  rowsJson: string;
  /** Their events, appended before `run_finished`. */
  events: RunEvent[];
  /** Every node of the run as its rows stand after this write (the fact's list). */
  nodes: FactNode[];
}

/**
 * Ends a run in ONE statement (no transaction round trips: issue 21): fenced on the lease, it
 * moves the run to its terminal state, writes the node rows the journal held back (instant nodes)
 * with their events, the `run_finished` event (always the log's last), and in the outbox the fact
 * on `platform.workflow-runs` and the owner's `workflow.run_success|run_failed` notification
 * event, then NOTIFYs the streams and the relay. A worker that lost its lease (or a reconciler
 * racing a live worker) changes nothing and gets `LeaseLostError`. Without `writes` (the
 * reconciler's timeout) the fact lists the node rows as stored.
 */
export async function finishRun(
  pool: Pool,
  run: RunRow,
  fence: WriteFence,
  outcome: RunOutcome,
  now: Date,
  writes?: FinishWrites,
): Promise<void> {
  const startedAt = run.started_at ?? now;
  const totalDurationMs = Math.max(0, now.getTime() - startedAt.getTime());
  const nodes = writes?.nodes ?? (await storedFactNodes(pool, run.id));
  const events: RunEvent[] = [
    ...(writes?.events ?? []),
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
  ];
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
    nodes: nodes.map(({ position: _position, ...node }) => node),
    mode: run.mode,
    version: run.version,
    trigger_type: run.trigger_type,
    trigger_id: run.trigger_id,
    error_code: outcome.error?.code ?? 0,
    error_message: outcome.error?.message ?? '',
    error_node_id: outcome.error?.node_id ?? '',
  };
  const notice = runNotice(run, outcome, now);
  const published: OutboxEvent[] = [
    {
      topic: Topics.WORKFLOW_RUNS,
      key: run.workflow_id,
      type: 'workflow.run_finished',
      id: `workflow-run:${run.id}`,
      value: fact,
    },
    { topic: Topics.NOTIFICATION_EVENTS, key: run.owner_id, type: notice.type, id: notice.id, value: notice },
  ];
  const finished = await pool.query({
    ...FINISH['owner' in fence ? 'owner' : 'expired'],
    values: [
      run.id,
      fenceValue(fence),
      events.length,
      outcome.status,
      outcome.status === 'success' ? JSON.stringify(outcome.outputs ?? {}) : null,
      outcome.error ? JSON.stringify(outcome.error) : null,
      outcome.totalTokens,
      now,
      writes?.rowsJson ?? '[]',
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
      published.map((event) => event.topic),
      published.map((event) => event.key),
      published.map((event) => event.type),
      published.map((event) => event.id),
      published.map((event) => JSON.stringify(event.value)),
      requestContext.current()?.requestId ?? null,
      outboxTraceContext(),
    ],
  });
  if (finished.rowCount !== 1) throw new LeaseLostError(run.id);
}

const FINISH_SQL = (fence: WriteFence) => `
WITH finished AS (
  UPDATE workflow_runs
     SET last_event_seq = last_event_seq + $3, status = $4, outputs = $5::jsonb, error = $6::jsonb,
         total_tokens = $7, finished_at = $8, lease_owner = NULL, lease_expires_at = NULL
   WHERE id = $1 AND status = 'running' AND ${fenceSql(fence, '$2')}
   RETURNING last_event_seq),
nodes AS (
  ${NODE_ROWS_UPSERT(`(SELECT j.* FROM finished, jsonb_to_recordset($9::jsonb) AS j(${NODE_ROW_COLUMNS})) AS r`, '$1')}),
events AS (
  INSERT INTO workflow_run_events (run_id, seq, type, data)
  SELECT $1, finished.last_event_seq - $3 + e.ord, e.type, e.data
    FROM finished, unnest($10::text[], $11::jsonb[]) WITH ORDINALITY AS e(type, data, ord)),
outboxed AS (
  INSERT INTO outbox (topic, key, type, event_id, value, request_id, trace_context)
  SELECT o.topic, o.key, o.type, o.event_id, o.value, $17, $18
    FROM finished, unnest($12::text[], $13::text[], $14::text[], $15::text[], $16::jsonb[])
         WITH ORDINALITY AS o(topic, key, type, event_id, value, ord)
   ORDER BY o.ord)
SELECT pg_notify('${RUN_EVENTS_CHANNEL}', $1 || ':' || last_event_seq), pg_notify('${OUTBOX_CHANNEL}', '')
  FROM finished`;

/** Built once per fence kind (a worker's lease, or the reconciler on an expired lease), prepared by name. */
const FINISH = preparedPerFence('finish-run', FINISH_SQL);

async function storedFactNodes(pool: Pool, runId: string): Promise<FactNode[]> {
  const nodes = (await listNodeExecutions(pool, [runId])).get(runId) ?? [];
  return nodes.map((node) => ({
    node_id: node.node_id,
    node_type: node.node_type,
    position: node.position,
    status: node.status,
    duration_ms: Number(node.duration_ms),
    tokens: Number(node.tokens),
    model: node.model ?? '',
  }));
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
