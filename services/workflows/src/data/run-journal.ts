import { withTransaction, type Pool, type PoolClient } from '@platform/db';
import type { FactNode, FinishWrites } from './run-finish.js';
import { appendEvents, finishNodeRow, type RunEvent } from './run-events.js';
import { isSafelyStorable, nodeRowsJson, writeNodeRows, type NodeRowWrite } from './node-rows.js';
import {
  OutputNotStorableError,
  type NodeOutcome,
  type RecordedNode,
  type RunErrorValue,
  type RunJournal,
} from '../domain/runs/engine/contract.js';

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

type NodeRef = { nodeId: string; nodeType: string; position: number };

/** A journal that may hold writes back: the run's finish writes what is left (`takeForFinish`). */
export interface PostgresRunJournal extends RunJournal {
  /**
   * Hands the held node rows and their events to the run's finish statement (run-finish.ts), with
   * every node as its row will then stand (the fact's list, so the finish need not read them
   * back). A run made only of instant nodes is written by its claim and its finish: two statements.
   */
  takeForFinish(): FinishWrites;
  /**
   * Hands the run back to the other workers (a draining worker): writes what is held (instant
   * nodes already finished here never run again), then releases the lease in the same
   * transaction (`hand_back_workflow_run`, which NOTIFYs the workers). False when the lease was
   * no longer this worker's.
   */
  handBack(leaseMs: number): Promise<boolean>;
}

export interface JournalOptions {
  /**
   * Node types without side effects outside the run (start, end, template, condition): their
   * start and finish are held back and written with the run's next write. A worker that dies
   * before that write loses nothing but their rows, and the next worker simply runs them again.
   */
  instant: (nodeType: string) => boolean;
  /**
   * The run's first claim (`attempts` 1): only a worker holding a claim writes node rows, so
   * there are none to read back and `recorded()` answers without a query.
   */
  firstClaim: boolean;
}

/**
 * The engine's journal over Postgres for the worker holding the run's lease. Every write is ONE
 * transaction that also writes what was held back (instant nodes) and appends all the events in
 * one fenced statement (`appendEvents`): a worker that lost its lease writes nothing.
 */
export function postgresRunJournal(
  pool: Pool,
  runId: string,
  owner: string,
  options: JournalOptions,
): PostgresRunJournal {
  const fence = { owner };
  /** Instant nodes started and not yet finished, with when they started. */
  const starting = new Map<string, Date>();
  /** Attempts of each node as recorded (resume) or as this worker's start wrote it. */
  const attempts = new Map<string, number>();
  let held: Array<{ row: NodeRowWrite; events: RunEvent[] }> = [];
  /** Every node's row as it stands (or will, once what is held is written): the run fact's list. */
  const factNodes = new Map<string, FactNode>();
  const noteNode = (ref: NodeRef, change: Partial<FactNode>) => {
    const known = factNodes.get(ref.nodeId);
    const base = known ?? {
      node_id: ref.nodeId,
      node_type: ref.nodeType,
      position: ref.position,
      status: 'running',
      duration_ms: 0,
      tokens: 0,
      model: '',
    };
    factNodes.set(ref.nodeId, { ...base, ...change });
  };
  const noteFinished = (finished: Parameters<RunJournal['nodeFinished']>[0]) =>
    noteNode(finished, {
      status: finished.outcome.status,
      duration_ms: Math.round(finished.durationMs),
      tokens: finished.outcome.tokens ?? 0,
      model: finished.outcome.model ?? '',
    });

  const takeHeld = async (client: PoolClient): Promise<RunEvent[]> => {
    if (held.length === 0) return [];
    const taken = held;
    held = [];
    await writeNodeRows(client, runId, nodeRowsJson(taken.map((entry) => entry.row)));
    return taken.flatMap((entry) => entry.events);
  };
  /**
   * One transaction: the held rows, then `write`'s own statements, then every event in order.
   * What was held stays held when the transaction fails (a data error of this node, say).
   */
  const writeWith = async (write: (client: PoolClient) => Promise<RunEvent[]>) => {
    const before = held;
    try {
      await withTransaction(pool, async (client) => {
        const earlier = await takeHeld(client);
        const own = await write(client);
        await appendEvents(client, runId, fence, [...earlier, ...own]);
      });
    } catch (error) {
      held = [...before, ...held];
      throw error;
    }
  };
  const startedEvent = (ref: NodeRef, attempt: number): RunEvent => ({
    type: 'node_started',
    data: { node_id: ref.nodeId, node_type: ref.nodeType, position: ref.position, attempt },
  });

  return {
    async recorded(): Promise<RecordedNode[]> {
      if (options.firstClaim) return [];
      const rows = await readRecordedNodes(pool, runId);
      for (const { node, fact } of rows) {
        attempts.set(node.nodeId, node.attempts ?? 1);
        factNodes.set(node.nodeId, fact);
      }
      return rows.map(({ node }) => node);
    },

    async nodeStarted(ref) {
      if (options.instant(ref.nodeType)) {
        starting.set(ref.nodeId, ref.startedAt);
        return;
      }
      await writeWith(async (client) => {
        const { rows } = await client.query<{ attempts: number }>(
          `INSERT INTO workflow_node_executions (run_id, node_id, position, node_type, status, started_at)
           VALUES ($1, $2, $3, $4, 'running', $5)
           ON CONFLICT (run_id, node_id) DO UPDATE
             SET status = 'running', attempts = workflow_node_executions.attempts + 1, started_at = $5
           RETURNING attempts`,
          [runId, ref.nodeId, ref.position, ref.nodeType, ref.startedAt],
        );
        attempts.set(ref.nodeId, rows[0]!.attempts);
        noteNode(ref, { status: 'running' });
        return [startedEvent(ref, rows[0]!.attempts)];
      });
    },

    async nodeFinished(finished) {
      const finishedEvent: RunEvent = {
        type: 'node_finished',
        data: nodeFinishedData(
          finished.nodeId,
          finished.nodeType,
          finished.position,
          finished.outcome,
          finished.durationMs,
        ),
      };
      if (starting.has(finished.nodeId)) {
        const row: NodeRowWrite = { kind: 'finished', ...finished };
        const entry = {
          row,
          events: [startedEvent(finished, (attempts.get(finished.nodeId) ?? 0) + 1), finishedEvent],
        };
        // Held back only when Postgres is sure to take it; else written now, so a refusal is
        // this node's `output_not_storable` and not a failure of a later write.
        if (isSafelyStorable(nodeRowsJson([row]))) {
          held.push(entry);
        } else {
          await storingNodeData(() =>
            writeWith(async (client) => {
              await writeNodeRows(client, runId, nodeRowsJson([row]));
              return entry.events;
            }),
          );
        }
        // Only once written or held: after a refusal the engine records the node failed instead.
        starting.delete(finished.nodeId);
        noteFinished(finished);
        return;
      }
      const { outcome } = finished;
      const row = {
        status: outcome.status,
        outputsJson: JSON.stringify(outcome.outputs ?? {}),
        branch: outcome.branch ?? null,
        errorJson: errorJson(outcome.error),
        tokens: outcome.tokens ?? 0,
        model: outcome.model ?? null,
        durationMs: Math.round(finished.durationMs),
        logsJson: outcome.logs ? JSON.stringify(outcome.logs) : null,
      };
      // Nothing held (the node's start wrote it all): one statement, no transaction.
      await storingNodeData(() =>
        held.length === 0
          ? finishNodeRow(pool, runId, fence, finished.nodeId, row, finishedEvent)
          : writeWith(async (client) => {
              await finishNodeRow(client, runId, fence, finished.nodeId, row, finishedEvent);
              return [];
            }),
      );
      noteFinished(finished);
    },

    async nodeSkipped(ref) {
      noteNode(ref, { status: 'skipped' });
      held.push({
        row: { kind: 'skipped', ...ref },
        events: [
          {
            type: 'node_finished',
            data: {
              node_id: ref.nodeId,
              node_type: ref.nodeType,
              position: ref.position,
              status: 'skipped',
              duration_ms: 0,
            },
          },
        ],
      });
    },

    async text(nodeId, chunk) {
      const attempt = attempts.get(nodeId);
      if (attempt !== undefined && held.length === 0) {
        // The usual case: one statement, no transaction.
        const event = { type: 'text_chunk', data: { node_id: nodeId, text: chunk, attempt } };
        await storingNodeData(async () => void (await appendEvents(pool, runId, fence, [event])));
        return;
      }
      await storingNodeData(() =>
        writeWith(async (client) => {
          let attempt = attempts.get(nodeId);
          if (attempt === undefined) {
            const { rows } = await client.query<{ attempts: number }>(
              'SELECT attempts FROM workflow_node_executions WHERE run_id = $1 AND node_id = $2',
              [runId, nodeId],
            );
            attempt = rows[0]?.attempts ?? 1;
          }
          return [{ type: 'text_chunk', data: { node_id: nodeId, text: chunk, attempt } }];
        }),
      );
    },

    async handBack(leaseMs) {
      return withTransaction(pool, async (client) => {
        const events = await takeHeld(client);
        if (events.length > 0) await appendEvents(client, runId, fence, events);
        const { rows } = await client.query<{ handed: boolean }>(
          'SELECT hand_back_workflow_run($1, $2, $3) AS handed',
          [runId, owner, leaseMs],
        );
        return rows[0]!.handed;
      });
    },

    takeForFinish(): FinishWrites {
      const taken = held;
      held = [];
      return {
        rowsJson: nodeRowsJson(taken.map((entry) => entry.row)),
        events: taken.flatMap((entry) => entry.events),
        nodes: [...factNodes.values()].sort((a, b) => a.position - b.position),
      };
    },
  };
}

async function readRecordedNodes(
  pool: Pool,
  runId: string,
): Promise<Array<{ node: RecordedNode; fact: FactNode }>> {
  const { rows } = await pool.query<{
    duration_ms: string;
    model: string | null;
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
    `SELECT node_id, node_type, position, status, outputs, branch, tokens, error, attempts, duration_ms, model
       FROM workflow_node_executions WHERE run_id = $1 ORDER BY position`,
    [runId],
  );
  return rows.map((row) => ({
    node: {
      nodeId: row.node_id,
      nodeType: row.node_type,
      position: row.position,
      status: row.status,
      outputs: row.outputs,
      branch: row.branch,
      tokens: Number(row.tokens),
      attempts: row.attempts,
      ...(row.error ? { error: row.error } : {}),
    },
    fact: {
      node_id: row.node_id,
      node_type: row.node_type,
      position: row.position,
      status: row.status,
      duration_ms: Number(row.duration_ms),
      tokens: Number(row.tokens),
      model: row.model ?? '',
    },
  }));
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
    ...(outcome.logs ? { logs: outcome.logs } : {}),
  };
}
