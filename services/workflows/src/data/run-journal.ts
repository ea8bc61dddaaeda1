import { withTransaction, type Pool, type PoolClient } from '@platform/db';
import {
  LeaseLostError,
  OutputNotStorableError,
  type NodeOutcome,
  type RecordedNode,
  type RunErrorValue,
  type RunJournal,
} from '../domain/runs/engine/contract.js';

/** The pinned live-tail channel: the payload is `<run_id>:<seq>` (docs/workflows.md "Streaming"). */
export const RUN_EVENTS_CHANNEL = 'workflow_run_events';

/** Who may write: the lease holder (`owner`), or the reconciler on a run whose lease expired. */
export type WriteFence = { owner: string } | { expiredLease: true };

const fenceSql = (fence: WriteFence, param: string) =>
  'owner' in fence ? `lease_owner = ${param}` : `lease_expires_at < now() AND ${param}::text IS NULL`;
const fenceValue = (fence: WriteFence) => ('owner' in fence ? fence.owner : null);

/**
 * Appends one event to the run's log: the next `seq` comes from the run row, updated only while
 * the fence holds (else `LeaseLostError`), and the NOTIFY wakes the streams when it commits.
 */
export async function appendEvent(
  client: PoolClient,
  runId: string,
  fence: WriteFence,
  type: string,
  data: Record<string, unknown>,
): Promise<number> {
  const { rows } = await client.query<{ seq: string }>(
    `UPDATE workflow_runs SET last_event_seq = last_event_seq + 1
      WHERE id = $1 AND status = 'running' AND ${fenceSql(fence, '$2')} RETURNING last_event_seq AS seq`,
    [runId, fenceValue(fence)],
  );
  if (!rows[0]) throw new LeaseLostError(runId);
  const seq = Number(rows[0].seq);
  await client.query(
    `INSERT INTO workflow_run_events (run_id, seq, type, data) VALUES ($1, $2, $3, $4::jsonb)`,
    [runId, seq, type, JSON.stringify(data)],
  );
  await client.query(`SELECT pg_notify('${RUN_EVENTS_CHANNEL}', $1)`, [`${runId}:${seq}`]);
  return seq;
}

/**
 * Postgres refusing the data itself (class 22 "data exception": a NUL character in jsonb text,
 * an invalid byte sequence; 54000 a value past a size limit): the node's fault, never retried.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code === '54000');
}

/** Runs a write of the node's data; a data error becomes `OutputNotStorableError` for the engine. */
async function storingNodeData(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!isDataError(error)) throw error;
    const { code, message } = error as { code: string; message: string };
    throw new OutputNotStorableError(`${message} (SQLSTATE ${code})`);
  }
}

const errorJson = (error: RunErrorValue | undefined) => (error ? JSON.stringify(error) : null);

/** The engine's journal over Postgres for the worker holding the run's lease. */
export function postgresRunJournal(pool: Pool, runId: string, owner: string): RunJournal {
  const fence = { owner };
  return {
    async recorded(): Promise<RecordedNode[]> {
      const { rows } = await pool.query<{
        node_id: string;
        node_type: string;
        position: number;
        status: RecordedNode['status'];
        outputs: Record<string, unknown> | null;
        branch: string | null;
        tokens: string;
        error: RunErrorValue | null;
        attempts: number;
      }>(
        `SELECT node_id, node_type, position, status, outputs, branch, tokens, error, attempts
           FROM workflow_node_executions WHERE run_id = $1 ORDER BY position`,
        [runId],
      );
      return rows.map((row) => ({
        nodeId: row.node_id,
        nodeType: row.node_type,
        position: row.position,
        status: row.status,
        outputs: row.outputs,
        branch: row.branch,
        tokens: Number(row.tokens),
        attempts: row.attempts,
        ...(row.error ? { error: row.error } : {}),
      }));
    },

    async nodeStarted({ nodeId, nodeType, position, startedAt }) {
      await withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ attempts: number }>(
          `INSERT INTO workflow_node_executions (run_id, node_id, position, node_type, status, started_at)
           VALUES ($1, $2, $3, $4, 'running', $5)
           ON CONFLICT (run_id, node_id) DO UPDATE
             SET status = 'running', attempts = workflow_node_executions.attempts + 1, started_at = $5
           RETURNING attempts`,
          [runId, nodeId, position, nodeType, startedAt],
        );
        await appendEvent(client, runId, fence, 'node_started', {
          node_id: nodeId,
          node_type: nodeType,
          position,
          attempt: rows[0]!.attempts,
        });
      });
    },

    async nodeFinished({ nodeId, nodeType, position, outcome, durationMs }) {
      await storingNodeData(() =>
        withTransaction(pool, async (client) => {
          await client.query(
            `UPDATE workflow_node_executions
              SET status = $3, outputs = $4::jsonb, branch = $5, error = $6::jsonb, tokens = $7, model = $8,
                  duration_ms = $9, finished_at = now()
            WHERE run_id = $1 AND node_id = $2`,
            [
              runId,
              nodeId,
              outcome.status,
              JSON.stringify(outcome.outputs ?? {}),
              outcome.branch ?? null,
              errorJson(outcome.error),
              outcome.tokens ?? 0,
              outcome.model ?? null,
              Math.round(durationMs),
            ],
          );
          await appendEvent(
            client,
            runId,
            fence,
            'node_finished',
            nodeFinishedData(nodeId, nodeType, position, outcome, durationMs),
          );
        }),
      );
    },

    async nodeSkipped({ nodeId, nodeType, position }) {
      await withTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO workflow_node_executions (run_id, node_id, position, node_type, status, attempts)
           VALUES ($1, $2, $3, $4, 'skipped', 0)
           ON CONFLICT (run_id, node_id) DO UPDATE SET status = 'skipped'`,
          [runId, nodeId, position, nodeType],
        );
        await appendEvent(client, runId, fence, 'node_finished', {
          node_id: nodeId,
          node_type: nodeType,
          position,
          status: 'skipped',
          duration_ms: 0,
        });
      });
    },

    async text(nodeId, chunk) {
      await storingNodeData(() =>
        withTransaction(pool, async (client) => {
          const { rows } = await client.query<{ attempts: number }>(
            'SELECT attempts FROM workflow_node_executions WHERE run_id = $1 AND node_id = $2',
            [runId, nodeId],
          );
          await appendEvent(client, runId, fence, 'text_chunk', {
            node_id: nodeId,
            text: chunk,
            attempt: rows[0]?.attempts ?? 1,
          });
        }),
      );
    },
  };
}

function nodeFinishedData(
  nodeId: string,
  nodeType: string,
  position: number,
  outcome: NodeOutcome,
  durationMs: number,
): Record<string, unknown> {
  return {
    node_id: nodeId,
    node_type: nodeType,
    position,
    status: outcome.status,
    duration_ms: Math.round(durationMs),
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.tokens ? { tokens: outcome.tokens } : {}),
    ...(outcome.model ? { model: outcome.model } : {}),
  };
}
