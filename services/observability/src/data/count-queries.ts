import type { Granularity, Window } from '../domain/analytics/query-contract.js';
import type { PoolClient } from '@platform/db';
import { readWindow, type Correction, type Db } from './histogram-queries.js';

export interface Counts {
  requests: number;
  successes: number;
  timeouts: number;
  tokens: number;
  failedNodes: number;
}

export const NO_COUNTS: Counts = { requests: 0, successes: 0, timeouts: 0, tokens: 0, failedNodes: 0 };

const SUMS = `sum(requests)::float8 AS requests, sum(successes)::float8 AS successes,
  sum(timeouts)::float8 AS timeouts, sum(tokens)::float8 AS tokens, sum(failed_nodes)::float8 AS failed_nodes`;

function toCounts(row: Record<string, unknown>): Counts {
  return {
    requests: Number(row.requests ?? 0),
    successes: Number(row.successes ?? 0),
    timeouts: Number(row.timeouts ?? 0),
    tokens: Number(row.tokens ?? 0),
    failedNodes: Number(row.failed_nodes ?? 0),
  };
}

function since(window: Window, params: unknown[]): string {
  return window.from === null ? 'TRUE' : `hour >= $${params.push(window.from)}`;
}

const COUNT_COLUMNS = 'requests, successes, timeouts, tokens, failed_nodes';

/**
 * The window's counts (`window_counts`) plus, while the advancer lags, the correction hours from
 * `hourly_counts` (signed), grouped by `groupBy`.
 */
async function windowCounts(
  client: PoolClient,
  win: number,
  correction: Correction | null,
  groupBy: 'source' | 'entity_id',
  where: string,
  params: unknown[],
): Promise<Array<Record<string, unknown>>> {
  const all = [win, ...params];
  const parts = [`SELECT source, entity_id, ${COUNT_COLUMNS} FROM window_counts WHERE win = $1 AND ${where}`];
  if (correction) {
    const sign = correction.sign;
    parts.push(
      `SELECT source, entity_id, ${COUNT_COLUMNS.split(', ')
        .map((c) => `${sign} * ${c}`)
        .join(', ')}
         FROM hourly_counts WHERE ${where} AND hour >= $${all.push(correction.from)} AND hour < $${all.push(correction.to)}`,
    );
  }
  const { rows } = await client.query(
    `SELECT ${groupBy}, ${SUMS} FROM (${parts.join(' UNION ALL ')}) c (source, entity_id, ${COUNT_COLUMNS})
      GROUP BY ${groupBy} HAVING sum(requests) > 0`,
    all,
  );
  return rows as Array<Record<string, unknown>>;
}

/** Totals per source (1 agent, 2 workflow) from the range's sliding window. */
export async function countsBySource(db: Db, window: Window): Promise<Map<number, Counts>> {
  const rows = await readWindow(db, window, (client, correction) =>
    windowCounts(client, window.win, correction, 'source', 'TRUE', []),
  );
  return new Map(rows.map((row) => [Number(row.source), toCounts(row)]));
}

/** Totals per entity of one source from the range's sliding window; `entity` narrows to one. */
export async function countsByEntity(
  db: Db,
  source: number,
  window: Window,
  entity?: string,
): Promise<Map<string, Counts>> {
  const rows = await readWindow(db, window, (client, correction) =>
    entity === undefined
      ? windowCounts(client, window.win, correction, 'entity_id', 'source = $2', [source])
      : windowCounts(client, window.win, correction, 'entity_id', 'source = $2 AND entity_id = $3', [
          source,
          entity,
        ]),
  );
  return new Map(rows.map((row) => [String(row.entity_id), toCounts(row)]));
}

/** The highest number of requests (agent rounds + workflow runs) in one UTC hour of the range. */
export async function peakHourlyRequests(db: Db, window: Window): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await db.gate.run(() =>
    db.pool.query<{ peak: string | null }>(
      `SELECT max(total)::float8 AS peak FROM
         (SELECT sum(requests) AS total FROM hourly_source_counts WHERE ${since(window, params)} GROUP BY hour) h`,
      params,
    ),
  );
  return Number(rows[0]?.peak ?? 0);
}

export interface SeriesRow {
  bucket: string;
  source: number;
  counts: Counts;
}

/** Bucketed counts per source (UTC hours or days), optionally for one entity. */
export async function countSeries(
  db: Db,
  window: Window,
  granularity: Granularity,
  filter?: { source: number; entity: string },
): Promise<SeriesRow[]> {
  const params: unknown[] = [granularity];
  const only = filter
    ? ` AND source = $${params.push(filter.source)} AND entity_id = $${params.push(filter.entity)}`
    : '';
  const { rows } = await db.gate.run(() =>
    db.pool.query(
      `SELECT date_trunc($1, hour, 'UTC') AS bucket, source, ${SUMS} FROM ${filter ? 'hourly_counts' : 'hourly_source_counts'}
        WHERE ${since(window, params)}${only} GROUP BY 1, 2 ORDER BY 1, 2`,
      params,
    ),
  );
  return rows.map((row: Record<string, unknown>) => ({
    bucket: (row.bucket as Date).toISOString(),
    source: Number(row.source),
    counts: toCounts(row),
  }));
}

/** Request events (agent rounds and final workflow runs) with a fact time in [from, to). */
export async function eventsBetween(db: Db, from: Date, to: Date): Promise<number> {
  const { rows } = await db.gate.run(() =>
    db.pool.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM agent_rounds WHERE finished_at >= $1 AND finished_at < $2)
             + (SELECT count(*) FROM workflow_runs
                 WHERE finished_at >= $1 AND finished_at < $2 AND status <> 'running'))::float8 AS n`,
      [from, to],
    ),
  );
  return Number(rows[0]?.n ?? 0);
}

export async function runningWorkflows(db: Db): Promise<number> {
  const { rows } = await db.gate.run(() =>
    db.pool.query<{ n: number }>(`SELECT count(*)::float8 AS n FROM workflow_runs WHERE status = 'running'`),
  );
  return Number(rows[0]?.n ?? 0);
}

export async function tokensByModel(
  db: Db,
  window: Window,
): Promise<Array<{ model: string; tokens: number; requests: number }>> {
  const params: unknown[] = [];
  const { rows } = await db.gate.run(() =>
    db.pool.query<{ model: string; tokens: number; requests: number }>(
      `SELECT model, sum(tokens)::float8 AS tokens, sum(requests)::float8 AS requests FROM hourly_model_tokens
        WHERE source = 1 AND ${since(window, params)} GROUP BY model ORDER BY 2 DESC, 1`,
      params,
    ),
  );
  return rows.map((row) => ({
    model: row.model,
    tokens: Number(row.tokens),
    requests: Number(row.requests),
  }));
}

export async function nodeTypeStats(db: Db, workflowId: string, window: Window) {
  const params: unknown[] = [workflowId];
  const { rows } = await db.gate.run(() =>
    db.pool.query<{
      node_type: string;
      execution_count: number;
      failed_count: number;
      avg_duration_ms: number;
    }>(
      `SELECT node_type, sum(executions)::float8 AS execution_count, sum(failed)::float8 AS failed_count,
              sum(duration_sum_ms) / sum(executions) AS avg_duration_ms
         FROM hourly_node_types WHERE workflow_id = $1 AND ${since(window, params)}
        GROUP BY node_type ORDER BY 2 DESC, 1 LIMIT 20`,
      params,
    ),
  );
  return rows.map((row) => ({
    node_type: row.node_type,
    execution_count: Number(row.execution_count),
    failed_count: Number(row.failed_count),
    avg_duration_ms: Math.round(Number(row.avg_duration_ms) * 100) / 100,
  }));
}
