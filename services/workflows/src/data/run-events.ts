import type { Pool, PoolClient } from '@platform/db';
import { LeaseLostError } from '../domain/runs/engine/contract.js';

/** The pinned live-tail channel: the payload is `<run_id>:<seq>` (docs/workflows.md "Streaming"). */
export const RUN_EVENTS_CHANNEL = 'workflow_run_events';

/** Who may write: the lease holder (`owner`), or the reconciler on a run whose lease expired. */
export type WriteFence = { owner: string } | { expiredLease: true };

export const fenceSql = (fence: WriteFence, param: string) =>
  'owner' in fence ? `lease_owner = ${param}` : `lease_expires_at < now() AND ${param}::text IS NULL`;
export const fenceValue = (fence: WriteFence) => ('owner' in fence ? fence.owner : null);

type FenceKind = 'owner' | 'expired';
const fenceKind = (fence: WriteFence): FenceKind => ('owner' in fence ? 'owner' : 'expired');

/** A statement's text per fence kind, under a name (`pg` prepares a named statement once per connection). */
export function preparedPerFence(
  name: string,
  text: (fence: WriteFence) => string,
): Record<FenceKind, { name: string; text: string }> {
  return {
    owner: { name: `${name}-owner`, text: text({ owner: '' }) },
    expired: { name: `${name}-expired`, text: text({ expiredLease: true }) },
  };
}

export interface RunEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * Appends events to the run's log in ONE statement (on its own, `client` may be the pool: no
 * transaction round trips): the run row's `last_event_seq` moves on by
 * their number only while the fence holds (else `LeaseLostError`, nothing written), the events
 * take the numbers in order, and one NOTIFY with the last `seq` wakes the streams when the
 * transaction commits (they re-read everything after what they saw, so one wake-up is enough).
 */
export async function appendEvents(
  client: Pool | PoolClient,
  runId: string,
  fence: WriteFence,
  events: RunEvent[],
): Promise<number> {
  if (events.length === 0) throw new Error('appendEvents needs at least one event');
  const { rows } = await client.query<{ seq: string }>({
    ...APPEND_EVENTS[fenceKind(fence)],
    values: [
      runId,
      fenceValue(fence),
      events.length,
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
    ],
  });
  if (!rows[0]) throw new LeaseLostError(runId);
  return Number(rows[0].seq);
}

const appendEventsSql = (fence: WriteFence) =>
  `WITH moved AS (
       UPDATE workflow_runs SET last_event_seq = last_event_seq + $3
        WHERE id = $1 AND status = 'running' AND ${fenceSql(fence, '$2')}
        RETURNING last_event_seq),
     inserted AS (
       INSERT INTO workflow_run_events (run_id, seq, type, data)
       SELECT $1, moved.last_event_seq - $3 + e.ord, e.type, e.data
         FROM moved, unnest($4::text[], $5::jsonb[]) WITH ORDINALITY AS e(type, data, ord))
     SELECT last_event_seq AS seq, pg_notify('${RUN_EVENTS_CHANNEL}', $1 || ':' || last_event_seq) FROM moved`;

/**
 * Named (prepared once per connection): Postgres parses and plans these hot statements once,
 * not on every write. One text per fence kind.
 */
const APPEND_EVENTS = preparedPerFence('append-run-events', appendEventsSql);

/** One event (see `appendEvents`); resolves to its `seq`. */
export function appendEvent(
  client: PoolClient,
  runId: string,
  fence: WriteFence,
  type: string,
  data: Record<string, unknown>,
): Promise<number> {
  return appendEvents(client, runId, fence, [{ type, data }]);
}

/**
 * A node's final row (the node was started by a `running` row) and its `node_finished` event in
 * ONE statement, fenced like `appendEvents`: the row changes only when the event is appended.
 */
export async function finishNodeRow(
  db: Pool | PoolClient,
  runId: string,
  fence: WriteFence,
  nodeId: string,
  row: {
    status: string;
    outputsJson: string;
    branch: string | null;
    errorJson: string | null;
    tokens: number;
    model: string | null;
    durationMs: number;
    logsJson: string | null;
  },
  event: RunEvent,
): Promise<void> {
  const { rows } = await db.query({
    ...FINISH_NODE_ROW[fenceKind(fence)],
    values: [
      runId,
      fenceValue(fence),
      nodeId,
      row.status,
      row.outputsJson,
      row.branch,
      row.errorJson,
      row.tokens,
      row.model,
      row.durationMs,
      event.type,
      JSON.stringify(event.data),
      row.logsJson,
    ],
  });
  if (!rows[0]) throw new LeaseLostError(runId);
}

const FINISH_NODE_ROW = preparedPerFence(
  'finish-node-row',
  (fence) =>
    `WITH moved AS (
       UPDATE workflow_runs SET last_event_seq = last_event_seq + 1
        WHERE id = $1 AND status = 'running' AND ${fenceSql(fence, '$2')}
        RETURNING last_event_seq),
     node AS (
       UPDATE workflow_node_executions
          SET status = $4, outputs = $5::jsonb, branch = $6, error = $7::jsonb, tokens = $8, model = $9,
              duration_ms = $10, logs = $13::jsonb, finished_at = now()
         FROM moved WHERE run_id = $1 AND node_id = $3),
     inserted AS (
       INSERT INTO workflow_run_events (run_id, seq, type, data)
       SELECT $1, last_event_seq, $11, $12::jsonb FROM moved)
     SELECT pg_notify('${RUN_EVENTS_CHANNEL}', $1 || ':' || last_event_seq) FROM moved`,
);
