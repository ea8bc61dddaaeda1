import type { Pool } from '@platform/db';

/** Agent and workflow ids are UUIDs (the analytics routes refuse anything else): number n's id. */
const AGENT_ID_PREFIX = '00000000-0000-4000-a000-';
const WORKFLOW_ID_PREFIX = '00000000-0000-4000-b000-';
export const benchAgentId = (n: number) => `${AGENT_ID_PREFIX}${String(n).padStart(12, '0')}`;
export const benchWorkflowId = (n: number) => `${WORKFLOW_ID_PREFIX}${String(n).padStart(12, '0')}`;

/**
 * Inserts `total` agent rounds (80 %) and workflow runs (20 %) spread uniformly over the last 30
 * days, one day per statement, then builds their rollups with the same grouping the consumer
 * writes (hourly counts, hourly and daily histograms per entity and in total, model tokens).
 * Durations are log-uniform between 1 ms and 30 s (agents) / 120 s (workflows).
 */
export async function seedFacts(pool: Pool, total: number, agents: number, progress: (done: number) => void) {
  const perDay = Math.ceil(total / 30);
  const rounds = Math.round(perDay * 0.8);
  const runs = perDay - rounds;
  await pool.query(`SET TIME ZONE 'UTC'`);
  for (let day = 0; day < 30; day++) {
    await pool.query(
      `INSERT INTO agent_rounds (id, agent_id, round_status, duration_ms, first_token_ms, prompt_tokens,
                                 completion_tokens, model, finished_at)
       SELECT 's-a-' || $1::int || '-' || g, '${AGENT_ID_PREFIX}' || lpad((g % $3)::text, 12, '0'), CASE WHEN g % 20 = 0 THEN 'error' ELSE 'completed' END,
              exp(random() * ln(30000))::int, exp(random() * ln(3000))::int, 100, 50, 'model-' || (g % 5),
              now() - (($1::int + random()) * interval '1 day')
         FROM generate_series(1, $2) g`,
      [day, rounds, agents],
    );
    await pool.query(
      `INSERT INTO workflow_runs (id, workflow_id, status, total_duration_ms, total_tokens, failed_nodes, finished_at)
       SELECT 's-w-' || $1::int || '-' || g, '${WORKFLOW_ID_PREFIX}' || lpad((g % 20)::text, 12, '0'),
              CASE WHEN g % 25 = 0 THEN 'timeout' WHEN g % 10 = 0 THEN 'failed' ELSE 'success' END,
              exp(random() * ln(120000))::int, 300, 0, now() - (($1::int + random()) * interval '1 day')
         FROM generate_series(1, $2) g`,
      [day, runs],
    );
    progress((day + 1) * perDay);
  }
  const facts = `(SELECT 1 AS source, agent_id AS entity_id, finished_at, duration_ms AS ms, first_token_ms AS ttft,
                         (round_status = 'completed')::int AS ok, (round_status = 'error')::int AS tmo,
                         prompt_tokens + completion_tokens AS tokens
                    FROM agent_rounds WHERE id LIKE 's-a-%'
                  UNION ALL
                  SELECT 2, workflow_id, finished_at, total_duration_ms, NULL, (status = 'success')::int,
                         (status = 'timeout')::int, total_tokens
                    FROM workflow_runs WHERE id LIKE 's-w-%') f`;
  const add = (table: string, keys: string, sets: string) =>
    `ON CONFLICT (${keys}) DO UPDATE SET ${sets
      .split(',')
      .map((c) => `${c.trim()} = ${table}.${c.trim()} + EXCLUDED.${c.trim()}`)
      .join(', ')}`;
  await pool.query(
    `INSERT INTO hourly_counts (source, entity_id, hour, requests, successes, timeouts, tokens, failed_nodes)
     SELECT source, entity_id, date_trunc('hour', finished_at), count(*), sum(ok), sum(tmo), sum(tokens), 0
       FROM ${facts} GROUP BY 1, 2, 3 ${add('hourly_counts', 'hour, source, entity_id', 'requests, successes, timeouts, tokens')}`,
  );
  for (const [metric, column] of [
    [1, 'ms'],
    [2, 'ttft'],
  ] as const) {
    for (const entity of ['entity_id', `''`]) {
      await pool.query(
        `INSERT INTO duration_histogram (source, metric, entity_id, hour, ms, n)
         SELECT source, ${metric}, ${entity}, date_trunc('hour', finished_at), ${column}, count(*)
           FROM ${facts} WHERE ${column} IS NOT NULL GROUP BY 1, 2, 3, 4, 5
         ${add('duration_histogram', 'source, metric, entity_id, hour, ms', 'n')}`,
      );
    }
  }
  await pool.query(
    `INSERT INTO hourly_model_tokens (source, model, hour, tokens, requests)
     SELECT 1, model, date_trunc('hour', finished_at), sum(prompt_tokens + completion_tokens), count(*)
       FROM agent_rounds WHERE id LIKE 's-a-%' GROUP BY 1, 2, 3
     ${add('hourly_model_tokens', 'hour, source, model', 'tokens, requests')}`,
  );
  // The sliding windows (7d, 30d, 90d, all) from the hourly rollups, as the consumer keeps them.
  await pool.query('SELECT rebuild_sliding_windows()');
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statements behind /overview and /agents, for the docs. */
export async function explainPlans(pool: Pool): Promise<string> {
  const from = `date_trunc('hour', now() - interval '30 days')`;
  // The service's first read (data/histogram-queries.ts rankBuckets): the buckets that hold the
  // wanted ranks, found in SQL. One source: rows as stored; several: summed per bucket.
  const ranks = (entity: string, sources: string) => {
    const single = `SELECT entity_id, bucket, n2::float8 AS n FROM window_buckets
      WHERE source = ANY('${sources}'::smallint[]) AND metric = 1 AND ${entity} AND n2 > 0`;
    const b = sources.includes(',')
      ? `SELECT entity_id, bucket, sum(n) AS n FROM (${single}) x GROUP BY entity_id, bucket HAVING sum(n) > 0`
      : single;
    return `
    WITH b AS (${b}),
         c AS (SELECT entity_id, bucket, n, sum(n) OVER (PARTITION BY entity_id ORDER BY bucket) - n AS before,
                      sum(n) OVER (PARTITION BY entity_id) AS total FROM b),
         r AS (SELECT DISTINCT floor(p * (total - 1)) + k AS rank, entity_id
                 FROM (SELECT DISTINCT entity_id, total FROM c) t, unnest('{0.5,0.9,0.95,0.99}'::float8[]) p,
                      (VALUES (0), (1)) k (k))
    SELECT c.entity_id, c.bucket, c.before, c.total FROM c
     WHERE EXISTS (SELECT 1 FROM r WHERE r.entity_id = c.entity_id AND r.rank >= c.before AND r.rank < c.before + c.n)
    UNION ALL
    SELECT entity_id, NULL, 0, total FROM (SELECT DISTINCT entity_id, total FROM c) t`;
  };
  const page = `entity_id = ANY(ARRAY(SELECT '${AGENT_ID_PREFIX}' || lpad(g::text, 12, '0') FROM generate_series(0, 19) g))`;
  // The second read: the per-millisecond rows of the buckets that hold the wanted ranks (here the
  // p50, p90, p95 and p99 buckets of the total: 173, 8.6 k, 17 k and 27 k ms).
  const fine = `
    SELECT t.i, v.ms, sum(v.n)::float8 AS n
      FROM unnest(ARRAY['', '', '', ''], ARRAY[172, 8448, 16896, 26624], ARRAY[176, 8704, 17408, 27136])
           WITH ORDINALITY AS t (entity_id, lo, hi, i)
      CROSS JOIN LATERAL (SELECT ms, n2 AS n FROM window_values
                           WHERE source = ANY('{1,2}'::smallint[]) AND metric = 1
                             AND entity_id = t.entity_id AND ms >= t.lo AND ms < t.hi) v
     GROUP BY t.i, v.ms HAVING sum(v.n) > 0 ORDER BY t.i, v.ms`;
  const statements: Array<[string, string]> = [
    ['overview latency: the buckets holding the ranks (total)', ranks(`entity_id = ''`, '{1,2}')],
    ['overview latency: values inside the four rank buckets', fine],
    ['agents page (default sort): the buckets holding the ranks of 20 agents', ranks(page, '{1}')],
    [
      'agents sorted by a percentile: the buckets holding the ranks of every agent',
      ranks(`entity_id <> ''`, '{1}'),
    ],
    [
      'agents counts',
      `SELECT entity_id, sum(requests), sum(successes) FROM window_counts WHERE win = 2 AND source = 1 GROUP BY entity_id`,
    ],
    [
      'peak hour',
      `SELECT max(t) FROM (SELECT sum(requests) AS t FROM hourly_source_counts WHERE hour >= ${from} GROUP BY hour) h`,
    ],
    ['current qps', `SELECT count(*) FROM agent_rounds WHERE finished_at >= now() - interval '60 seconds'`],
  ];
  const out: string[] = [];
  for (const [name, sql] of statements) {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
    );
    out.push(`-- ${name}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
  return out.join('\n\n');
}
