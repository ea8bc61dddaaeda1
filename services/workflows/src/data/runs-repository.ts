import type { Pool, PoolClient } from '@platform/db';
import type { RunErrorValue, RunMode, RunStatus } from '../domain/runs/engine/contract.js';

type Db = Pool | PoolClient;

export interface RunRow {
  id: string;
  workflow_id: string;
  owner_id: string;
  team_id: string;
  mode: RunMode;
  version: number;
  definition: unknown;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: RunErrorValue | null;
  status: RunStatus;
  trigger_type: 'user' | 'api_key';
  trigger_id: string;
  user_id: string;
  timeout_seconds: number;
  /** The workflow's team at start, whose fairness limits the run counts against (null: personal). */
  workflow_team_id: string | null;
  /** The X-Request-Id of the StartRun call: the run's logs and events carry it (null: older runs). */
  request_id: string | null;
  /** The W3C `traceparent` of the StartRun call: the worker's `workflow.run` span continues its trace. */
  trace_context: string | null;
  total_tokens: string;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  last_event_seq: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** Set by the bounded reads (`findRunView`, `listRuns`): the value was left out (null). */
  inputs_truncated?: boolean;
  outputs_truncated?: boolean;
}

/**
 * The most of a run's inputs and of its outputs (bytes of JSON text, each) one read carries: a
 * list page (100 rows) and one run both stay far below the 8 MiB gRPC message limit, so even a
 * row stored before the run limits existed (or with larger limits) is always readable.
 */
export const RUN_VIEW_VALUE_MAX_BYTES = 3 * 1024 * 1024;
export const RUN_LIST_VALUE_MAX_BYTES = 16 * 1024;

/** The columns of a run without its definition, inputs and outputs over `param` bytes left out. */
const viewColumns = (param: string) =>
  `id, workflow_id, owner_id, team_id, mode, version, error, status, trigger_type, trigger_id, user_id,
   timeout_seconds, total_tokens, attempts, last_event_seq, created_at, started_at, finished_at,
   CASE WHEN octet_length(inputs::text) > ${param} THEN NULL ELSE inputs END AS inputs,
   octet_length(inputs::text) > ${param} AS inputs_truncated,
   CASE WHEN octet_length(outputs::text) > ${param} THEN NULL ELSE outputs END AS outputs,
   coalesce(octet_length(outputs::text) > ${param}, false) AS outputs_truncated`;

export interface NodeExecutionRow {
  node_id: string;
  position: number;
  node_type: string;
  status: string;
  outputs: Record<string, unknown> | null;
  branch: string | null;
  error: RunErrorValue | null;
  tokens: string;
  model: string | null;
  /** A code node's console output; null for other node types. */
  logs: { lines: { level: string; text: string }[]; truncated: boolean } | null;
  attempts: number;
  started_at: Date | null;
  duration_ms: string;
}

export type NewRun = { definition: string } & Pick<
  RunRow,
  | 'workflow_id'
  | 'owner_id'
  | 'team_id'
  | 'mode'
  | 'version'
  | 'inputs'
  | 'trigger_type'
  | 'trigger_id'
  | 'user_id'
  | 'timeout_seconds'
  | 'workflow_team_id'
  | 'request_id'
  | 'trace_context'
>;

/** `startedByKey`: only runs that API key started (domain/runs/run-visibility.ts); null: every run. */
export type RunFilter = { startedByKey: string | null };
const ALL_RUNS: RunFilter = { startedByKey: null };
/** SQL condition of `RunFilter.startedByKey` given as `param` (null matches every run). */
const startedBy = (param: string) =>
  `(${param}::uuid IS NULL OR (trigger_type = 'api_key' AND trigger_id = ${param}::uuid))`;

export async function findRun(
  db: Db,
  workflowId: string,
  runId: string,
  filter: RunFilter = ALL_RUNS,
): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT * FROM workflow_runs WHERE id = $1 AND workflow_id = $2 AND ${startedBy('$3')}`,
    [runId, workflowId, filter.startedByKey],
  );
  return rows[0] ?? null;
}

export async function findRunById(db: Db, runId: string): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>('SELECT * FROM workflow_runs WHERE id = $1', [runId]);
  return rows[0] ?? null;
}

/** One run for GetRun: no definition, inputs and outputs bounded (`RUN_VIEW_VALUE_MAX_BYTES`). */
export async function findRunView(
  db: Db,
  workflowId: string,
  runId: string,
  filter: RunFilter = ALL_RUNS,
): Promise<RunRow | null> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${viewColumns('$4')} FROM workflow_runs WHERE id = $1 AND workflow_id = $2 AND ${startedBy('$3')}`,
    [runId, workflowId, filter.startedByKey, RUN_VIEW_VALUE_MAX_BYTES],
  );
  return rows[0] ?? null;
}

/**
 * Newest first; the definition is left out of list rows (it can be 512 KiB each), and inputs and
 * outputs over `RUN_LIST_VALUE_MAX_BYTES` too (flagged; GetRun has them).
 */
export async function listRuns(
  db: Db,
  workflowId: string,
  page: number,
  pageSize: number,
  filter: RunFilter = ALL_RUNS,
): Promise<{ rows: RunRow[]; total: number }> {
  const where = `workflow_id = $1 AND ${startedBy('$2')}`;
  const [list, count] = await Promise.all([
    db.query<RunRow>(
      `SELECT ${viewColumns('$5')}
         FROM workflow_runs WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [workflowId, filter.startedByKey, pageSize, (page - 1) * pageSize, RUN_LIST_VALUE_MAX_BYTES],
    ),
    db.query<{ n: string }>(`SELECT count(*) AS n FROM workflow_runs WHERE ${where}`, [
      workflowId,
      filter.startedByKey,
    ]),
  ]);
  return { rows: list.rows, total: Number(count.rows[0]!.n) };
}

export async function listNodeExecutions(db: Db, runIds: string[]): Promise<Map<string, NodeExecutionRow[]>> {
  const byRun = new Map<string, NodeExecutionRow[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const { rows } = await db.query<NodeExecutionRow & { run_id: string }>(
    `SELECT * FROM workflow_node_executions WHERE run_id = ANY($1::uuid[]) ORDER BY run_id, position`,
    [runIds],
  );
  for (const row of rows) byRun.get(row.run_id)?.push(row);
  return byRun;
}

/** The lease owner the reconciler writes on a run it hands to another worker (any worker may claim it). */
export const HANDOVER = 'handover';

/** False when the lease is no longer this worker's. */
export async function renewLease(db: Db, runId: string, owner: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE workflow_runs SET lease_expires_at = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
    [runId, owner, leaseMs],
  );
  return rowCount === 1;
}

export interface StrandedRun {
  id: string;
  attempts: number;
  past_deadline: boolean;
}

/**
 * Runs whose worker stopped renewing the lease (it died, hung or lost Postgres), marked handed
 * over in the same statement so no other reconciler (replica) picks them up again until `leaseMs`
 * has passed. SKIP LOCKED: replicas split the work instead of waiting on each other.
 */
export async function takeStrandedRuns(db: Db, leaseMs: number, limit: number): Promise<StrandedRun[]> {
  const { rows } = await db.query<StrandedRun>(
    `WITH stranded AS (
       SELECT id FROM workflow_runs
        WHERE status = 'running' AND lease_expires_at < now()
        ORDER BY lease_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE workflow_runs r
        SET lease_owner = '${HANDOVER}', lease_expires_at = now() + $1 * interval '1 millisecond'
       FROM stranded WHERE r.id = stranded.id
     RETURNING r.id, r.attempts,
               (coalesce(r.started_at, r.created_at) + r.timeout_seconds * interval '1 second' < now()) AS past_deadline`,
    [leaseMs, limit],
  );
  return rows;
}

/** Deletes the event logs of runs that ended more than `hours` ago; returns how many events went. */
export async function purgeRunEvents(db: Db, hours: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM workflow_run_events WHERE run_id IN (
       SELECT id FROM workflow_runs
        WHERE finished_at < now() - $1 * interval '1 hour'
          AND EXISTS (SELECT 1 FROM workflow_run_events e WHERE e.run_id = workflow_runs.id)
        LIMIT $2)`,
    [hours, limit],
  );
  return rowCount ?? 0;
}

export interface RunEventRow {
  seq: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The run's events after `afterSeq`, in order (at most `limit`). */
export async function listEventsAfter(
  db: Db,
  runId: string,
  afterSeq: number,
  limit: number,
): Promise<RunEventRow[]> {
  const { rows } = await db.query<RunEventRow>(
    `SELECT seq, type, data, created_at FROM workflow_run_events
      WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [runId, afterSeq, limit],
  );
  return rows;
}
