import type { Paging, Window } from '../domain/analytics/query-contract.js';
import type { Db } from './histogram-queries.js';

export interface TimeoutRow {
  id: string;
  source: 'agent' | 'workflow';
  entity_id: string;
  status: string;
  duration_ms: number;
  user_id: string;
  occurred_at: Date;
}

/** sort_by of /timeouts → column. */
export const TIMEOUT_SORT = { occurred_at: 'occurred_at', duration_ms: 'duration_ms' } as const;

/**
 * Agent rounds that ended in `error` and workflow runs that timed out, newest first by default;
 * served by the partial indexes on each table's failures (docs/observability.md).
 */
export async function listTimeoutEvents(
  db: Db,
  window: Window,
  source: 'all' | 'agent' | 'workflow',
  paging: Paging,
): Promise<{ rows: TimeoutRow[]; total: number }> {
  const params: unknown[] = [];
  const since = window.from === null ? '' : ` AND finished_at >= $${params.push(window.from)}`;
  const parts: string[] = [];
  if (source !== 'workflow') {
    parts.push(`SELECT id, 'agent' AS source, agent_id AS entity_id, round_status AS status, duration_ms,
                       user_id, finished_at AS occurred_at
                  FROM agent_rounds WHERE round_status = 'error'${since}`);
  }
  if (source !== 'agent') {
    parts.push(`SELECT id, 'workflow' AS source, workflow_id AS entity_id, status, total_duration_ms AS duration_ms,
                       user_id, finished_at AS occurred_at
                  FROM workflow_runs WHERE status = 'timeout'${since}`);
  }
  const union = parts.join(' UNION ALL ');
  const column = TIMEOUT_SORT[paging.sortBy as keyof typeof TIMEOUT_SORT];
  const order = paging.descending ? 'DESC' : 'ASC';
  const limit = `$${params.push(paging.pageSize)}`;
  const offset = `$${params.push((paging.page - 1) * paging.pageSize)}`;
  const [page, count] = await Promise.all([
    db.gate.run(() =>
      db.pool.query<TimeoutRow>(
        `SELECT * FROM (${union}) t ORDER BY ${column} ${order}, source, id LIMIT ${limit} OFFSET ${offset}`,
        params,
      ),
    ),
    db.gate.run(() =>
      db.pool.query<{ n: number }>(
        `SELECT count(*)::float8 AS n FROM (${union}) t`,
        params.slice(0, params.length - 2),
      ),
    ),
  ]);
  return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
}
