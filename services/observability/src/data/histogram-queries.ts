import { withTransaction, type Pool, type PoolClient } from '@platform/db';
import type { AggregateGate } from './aggregate-gate.js';
import { bucketRange } from './duration-buckets.js';
import type { Window } from '../domain/analytics/query-contract.js';
import { interpolate, LEVELS, type PercentileSet } from './percentiles.js';

export interface Db {
  pool: Pool;
  gate: AggregateGate;
}

/** Whose percentiles: '' the total row, `null` every entity of the source(s), else these ids. */
export type EntitySelection = '' | null | string[];

/**
 * The hours between the window's stored start and the range's start, when the advancer has not
 * caught up yet (or a replica's clock is ahead): their hourly rows are taken off (stored start
 * earlier) or added (stored start later), so a range is exact at any moment.
 */
export interface Correction {
  from: Date;
  to: Date;
  /** -1: the window holds these hours and must not; +1: it lacks them. */
  sign: -1 | 1;
}

export async function windowCorrection(client: PoolClient, window: Window): Promise<Correction | null> {
  if (window.from === null) return null;
  const { rows } = await client.query<{ from_hour: Date }>(
    'SELECT from_hour FROM window_state WHERE win = $1',
    [window.win],
  );
  const stored = rows[0]?.from_hour;
  if (!stored || stored.getTime() === window.from.getTime()) return null;
  return stored < window.from
    ? { from: stored, to: window.from, sign: -1 }
    : { from: window.from, to: stored, sign: 1 };
}

/**
 * Runs `read` on one snapshot (repeatable read, read only) inside the aggregate gate, with the
 * window's correction, so every statement of one figure sees the same facts.
 */
export function readWindow<T>(
  db: Db,
  window: Window,
  read: (client: PoolClient, correction: Correction | null) => Promise<T>,
): Promise<T> {
  return db.gate.run(() =>
    withTransaction(db.pool, async (client) => read(client, await windowCorrection(client, window)), {
      isolationLevel: 'repeatable read',
      readOnly: true,
    }),
  );
}

/** The histogram column of the range's window (n1 = 7d … n4 = all). */
function column(window: Window): string {
  const win = Number(window.win);
  if (!Number.isInteger(win) || win < 1 || win > 4)
    throw new Error(`no sliding window ${String(window.win)}`);
  return `n${win}`;
}

function entityFilter(entities: EntitySelection, params: unknown[]): string {
  if (entities === '') return `entity_id = ''`;
  if (entities === null) return `entity_id <> ''`;
  return `entity_id = ANY($${params.push(entities)}::text[])`;
}

/** Where each needed rank falls: the bucket and the count before it. */
interface RankPlace {
  entity: string;
  bucket: number;
  before: number;
}

/**
 * Exact percentiles per entity (percentile_cont over the raw millisecond values) from the sliding
 * window of the range, in two reads in one snapshot: the coarse buckets (which bucket holds each
 * needed rank), then the per-millisecond rows of just those buckets. `levels`: the percentiles to
 * compute (default all four; the others are 0), e.g. only the sort key of a list.
 */
export async function percentilesBy(
  db: Db,
  sources: number[],
  metric: number,
  window: Window,
  entities: EntitySelection,
  levels: readonly number[] = LEVELS,
): Promise<Map<string, PercentileSet>> {
  if (Array.isArray(entities) && entities.length === 0) return new Map();
  return readWindow(db, window, async (client, correction) => {
    const { totals, places } = await rankBuckets(
      client,
      sources,
      metric,
      window,
      entities,
      levels,
      correction,
    );
    const ranks = new Map<string, { total: number; ranks: number[] }>();
    for (const [entity, total] of totals) {
      const wanted = [
        ...new Set(levels.flatMap((p) => [Math.floor(p * (total - 1)), Math.floor(p * (total - 1)) + 1])),
      ].filter((rank) => rank < total);
      ranks.set(entity, { total, ranks: wanted });
    }
    const values = await valuesAtRanks(client, sources, metric, window, places, ranks, correction);
    const result = new Map<string, PercentileSet>();
    for (const [entity, { total }] of ranks) {
      const at = values.get(entity)!;
      const row: Record<string, unknown> = {};
      LEVELS.forEach((p, i) => {
        const rank = Math.floor(p * (total - 1));
        const wanted = levels.includes(p);
        row[`lo${i}`] = wanted ? at.get(rank) : 0;
        row[`hi${i}`] = wanted ? (at.get(rank + 1) ?? null) : 0;
      });
      result.set(entity, interpolate(row, total));
    }
    return result;
  });
}

/**
 * First read: per entity its total and the coarse buckets that hold a wanted rank (with the count
 * before each), found in SQL so only those few rows come back, not every bucket of every entity.
 * The ranks are computed in float8 as the service computes them.
 */
async function rankBuckets(
  client: PoolClient,
  sources: number[],
  metric: number,
  window: Window,
  entities: EntitySelection,
  levels: readonly number[],
  correction: Correction | null,
): Promise<{ totals: Map<string, number>; places: RankPlace[] }> {
  const params: unknown[] = [sources, metric, [...levels]];
  const filter = entityFilter(entities, params);
  const n = column(window);
  let buckets = `SELECT entity_id, bucket, ${n}::float8 AS n FROM window_buckets
    WHERE source = ANY($1::smallint[]) AND metric = $2 AND ${filter} AND ${n} > 0`;
  // Rows are unique per (entity, bucket) for one source; several sources or a correction are summed.
  if (correction || sources.length > 1) {
    const parts = [buckets];
    if (correction) {
      parts.push(
        `SELECT entity_id, duration_bucket(ms), (${correction.sign} * n)::float8 FROM duration_histogram
          WHERE source = ANY($1::smallint[]) AND metric = $2 AND ${filter}
            AND hour >= $${params.push(correction.from)} AND hour < $${params.push(correction.to)}`,
      );
    }
    buckets = `SELECT entity_id, bucket, sum(n) AS n FROM (${parts.join(' UNION ALL ')}) x (entity_id, bucket, n)
      GROUP BY entity_id, bucket HAVING sum(n) > 0`;
  }
  const { rows } = await client.query<{
    entity_id: string;
    bucket: number | null;
    before: number;
    total: number;
  }>(
    `WITH b AS (${buckets}),
          c AS (SELECT entity_id, bucket, n,
                       sum(n) OVER (PARTITION BY entity_id ORDER BY bucket) - n AS before,
                       sum(n) OVER (PARTITION BY entity_id) AS total
                  FROM b),
          r AS (SELECT DISTINCT floor(p * (total - 1)) + k AS rank, entity_id
                  FROM (SELECT DISTINCT entity_id, total FROM c) t, unnest($3::float8[]) p, (VALUES (0), (1)) k (k))
     SELECT c.entity_id, c.bucket, c.before, c.total FROM c
      WHERE EXISTS (SELECT 1 FROM r WHERE r.entity_id = c.entity_id AND r.rank >= c.before AND r.rank < c.before + c.n)
     UNION ALL
     SELECT entity_id, NULL, 0, total FROM (SELECT DISTINCT entity_id, total FROM c) t`,
    params,
  );
  const totals = new Map<string, number>();
  const places: RankPlace[] = [];
  for (const row of rows) {
    totals.set(row.entity_id, Number(row.total));
    if (row.bucket !== null)
      places.push({ entity: row.entity_id, bucket: Number(row.bucket), before: Number(row.before) });
  }
  return { totals, places };
}

/** entity → rank → the millisecond value at that 0-based rank. */
async function valuesAtRanks(
  client: PoolClient,
  sources: number[],
  metric: number,
  window: Window,
  places: RankPlace[],
  ranks: Map<string, { ranks: number[] }>,
  correction: Correction | null,
): Promise<Map<string, Map<number, number>>> {
  const out = new Map<string, Map<number, number>>([...ranks.keys()].map((entity) => [entity, new Map()]));
  if (places.length === 0) return out;
  const params: unknown[] = [
    sources,
    metric,
    places.map((p) => p.entity),
    places.map((p) => bucketRange(p.bucket).lo),
    places.map((p) => bucketRange(p.bucket).hi),
  ];
  const parts = [
    `SELECT ms, ${column(window)} FROM window_values
      WHERE source = ANY($1::smallint[]) AND metric = $2 AND entity_id = t.entity_id
        AND ms >= t.lo AND ms < t.hi`,
  ];
  if (correction) {
    parts.push(
      `SELECT ms, ${correction.sign} * n FROM duration_histogram
        WHERE source = ANY($1::smallint[]) AND metric = $2 AND entity_id = t.entity_id
          AND ms >= t.lo AND ms < t.hi
          AND hour >= $${params.push(correction.from)} AND hour < $${params.push(correction.to)}`,
    );
  }
  const { rows } = await client.query<{ i: string; ms: number; n: number }>(
    `SELECT t.i, v.ms, sum(v.n)::float8 AS n
       FROM unnest($3::text[], $4::integer[], $5::integer[]) WITH ORDINALITY AS t (entity_id, lo, hi, i)
       CROSS JOIN LATERAL (${parts.join(' UNION ALL ')}) v (ms, n)
      GROUP BY t.i, v.ms HAVING sum(v.n) > 0 ORDER BY t.i, v.ms`,
    params,
  );
  const byPlace = new Map<number, Array<{ ms: number; n: number }>>();
  for (const row of rows) {
    const index = Number(row.i) - 1;
    const list = byPlace.get(index) ?? [];
    list.push({ ms: Number(row.ms), n: Number(row.n) });
    byPlace.set(index, list);
  }
  places.forEach((place, index) => {
    const wanted = ranks.get(place.entity)!.ranks;
    const at = out.get(place.entity)!;
    let cumulative = place.before;
    for (const { ms, n } of byPlace.get(index) ?? []) {
      cumulative += n;
      // The value at rank r is the smallest ms whose cumulative count passes r.
      for (const rank of wanted)
        if (!at.has(rank) && rank >= place.before && rank < cumulative) at.set(rank, ms);
    }
  });
  return out;
}
