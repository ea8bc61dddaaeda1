import type { Pool } from '@platform/db';
import type { AggregateGate } from '../domain/aggregate-gate.js';
import type { Window } from '../domain/analytics/parameters.js';
import { interpolate, rankColumns, type PercentileSet } from '../domain/analytics/percentiles.js';

export interface Db {
  pool: Pool;
  gate: AggregateGate;
}

/**
 * Exact percentiles per entity (or the total, entity '') from the lossless histograms: whole days
 * from the daily rollup, the hours before the first whole day from the hourly one. Reads
 * (distinct millisecond values × buckets) rows, never the raw facts.
 * `entity`: '' the total row, `null` every entity of the source(s), else that entity.
 */
export async function percentilesBy(
  db: Db,
  sources: number[],
  metric: number,
  window: Window,
  entity: string | null,
): Promise<Map<string, PercentileSet>> {
  const params: unknown[] = [sources, metric];
  const entityFilter = entity === null ? `entity_id <> ''` : `entity_id = $${params.push(entity)}`;
  const parts: string[] = [];
  if (window.from === null || window.fullDaysFrom === null) {
    parts.push(
      `SELECT entity_id, ms, n FROM daily_duration_histogram
        WHERE source = ANY($1::smallint[]) AND metric = $2 AND ${entityFilter}`,
    );
  } else {
    const day = `$${params.push(window.fullDaysFrom.toISOString().slice(0, 10))}::date`;
    const from = `$${params.push(window.from)}::timestamptz`;
    const until = `$${params.push(window.fullDaysFrom)}::timestamptz`;
    parts.push(
      `SELECT entity_id, ms, n FROM daily_duration_histogram
        WHERE source = ANY($1::smallint[]) AND metric = $2 AND ${entityFilter} AND day >= ${day}`,
      `SELECT entity_id, ms, n FROM duration_histogram
        WHERE source = ANY($1::smallint[]) AND metric = $2 AND ${entityFilter}
          AND hour >= ${from} AND hour < ${until}`,
    );
  }
  const sql = `
    WITH h AS (SELECT entity_id, ms, sum(n) AS n FROM (${parts.join(' UNION ALL ')}) s GROUP BY entity_id, ms),
         c AS (SELECT entity_id, ms,
                      sum(n) OVER (PARTITION BY entity_id ORDER BY ms) AS cum,
                      sum(n) OVER (PARTITION BY entity_id) AS total
                 FROM h)
    SELECT entity_id, total, ${rankColumns()} FROM c GROUP BY entity_id, total`;
  const { rows } = await db.gate.run(() => db.pool.query<Record<string, unknown>>(sql, params));
  return new Map(rows.map((row) => [String(row.entity_id), interpolate(row, Number(row.total))]));
}
