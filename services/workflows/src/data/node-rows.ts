import type { PoolClient } from '@platform/db';
import type { FinishedNode, RunErrorValue } from '../domain/runs/engine/contract.js';

/** A node's row as it ends: ran to an outcome (`finished`) or on an untaken branch (`skipped`). */
export type NodeRowWrite =
  | ({ kind: 'finished' } & FinishedNode)
  | { kind: 'skipped'; nodeId: string; nodeType: string; position: number };

const errorValue = (error: RunErrorValue | undefined) => error ?? null;

function rowJson(write: NodeRowWrite): Record<string, unknown> {
  const base = { node_id: write.nodeId, node_type: write.nodeType, position: write.position };
  if (write.kind === 'skipped') return { ...base, status: 'skipped' };
  const { outcome } = write;
  return {
    ...base,
    status: outcome.status,
    outputs: outcome.outputs ?? {},
    branch: outcome.branch ?? null,
    error: errorValue(outcome.error),
    tokens: outcome.tokens ?? 0,
    model: outcome.model ?? null,
    logs: outcome.logs ?? null,
    started_at: write.startedAt.toISOString(),
    duration_ms: Math.round(write.durationMs),
  };
}

/** The rows' JSON text, as `writeNodeRows` sends it (also what `isSafelyStorable` checks). */
export const nodeRowsJson = (writes: NodeRowWrite[]) => JSON.stringify(writes.map(rowJson));

/**
 * JSON text Postgres accepts as `jsonb` for sure: no `\u0000` and no lone surrogate escapes (the
 * class 22 refusals `isDataError` turns into `output_not_storable`). Conservative: a text that
 * merely looks like one (an escaped backslash before `u0000`) counts as unsafe too.
 */
export function isSafelyStorable(json: string): boolean {
  return !/\\u0000|\\ud[89a-f]/i.test(json);
}

/** The record type of one row in the JSON `nodeRowsJson` builds (for `jsonb_to_recordset`). */
export const NODE_ROW_COLUMNS = `node_id text, node_type text, position integer, status text, outputs jsonb,
  branch text, error jsonb, tokens bigint, model text, logs jsonb, started_at timestamptz, duration_ms bigint`;

/**
 * The upsert of ended node rows read from `source` (a FROM item named `r` whose rows are
 * `NODE_ROW_COLUMNS`) for run `runId` (an SQL expression): a node that ran gets its final row (a row left `running` by an earlier
 * attempt is overwritten and its attempts counted on), a skipped node its `skipped` row (attempts
 * 0; an existing row only changes its status), exactly as the separate start, finish and skip
 * writes leave them. Also used inside the run's finish statement (run-finish.ts).
 */
/** Columns a `skipped` write leaves as they are on an existing row (built once, not per write). */
const KEPT_WHEN_SKIPPED = [
  'outputs',
  'branch',
  'error',
  'tokens',
  'model',
  'logs',
  'started_at',
  'duration_ms',
  'finished_at',
]
  .map(
    (column) =>
      `         ${column} = CASE WHEN excluded.status = 'skipped' THEN n.${column} ELSE excluded.${column} END`,
  )
  .join(',\n');

export const NODE_ROWS_UPSERT = (source: string, runId: string) => `
  INSERT INTO workflow_node_executions AS n
         (run_id, node_id, position, node_type, status, outputs, branch, error, tokens, model, logs,
          attempts, started_at, duration_ms, finished_at)
  SELECT ${runId}, r.node_id, r.position, r.node_type, r.status, r.outputs, r.branch, r.error,
         coalesce(r.tokens, 0), r.model, r.logs, CASE WHEN r.status = 'skipped' THEN 0 ELSE 1 END,
         r.started_at, coalesce(r.duration_ms, 0), CASE WHEN r.status = 'skipped' THEN NULL ELSE now() END
    FROM ${source}
  ON CONFLICT (run_id, node_id) DO UPDATE
     SET status = excluded.status,
         attempts = CASE WHEN excluded.status = 'skipped' THEN n.attempts ELSE n.attempts + 1 END,
${KEPT_WHEN_SKIPPED}`;

/** Writes several ended node rows (`nodeRowsJson`) in ONE statement (see `NODE_ROWS_UPSERT`). */
export async function writeNodeRows(client: PoolClient, runId: string, rowsJson: string): Promise<void> {
  await client.query({ name: 'write-node-rows', text: WRITE_NODE_ROWS_SQL, values: [runId, rowsJson] });
}

const WRITE_NODE_ROWS_SQL = NODE_ROWS_UPSERT(`jsonb_to_recordset($2::jsonb) AS r(${NODE_ROW_COLUMNS})`, '$1');
