import type { PoolClient } from '@platform/db';
import { bucketOf } from './duration-buckets.js';

const SEP = '\u0001';

/** Each window's first hour (ms since the epoch; -Infinity for `all`), share-locked for the transaction. */
async function lockWindowStarts(client: PoolClient): Promise<Array<{ win: number; from: number }>> {
  // FOR SHARE: the window advancer takes FOR UPDATE on its window's row before it subtracts the
  // hours that left it, so a batch is either wholly before or wholly after an advance.
  const { rows } = await client.query<{ win: number; from_ms: number }>(
    `SELECT win, (extract(epoch FROM from_hour) * 1000)::float8 AS from_ms
       FROM window_state ORDER BY win FOR SHARE`,
  );
  return rows.map((row) => ({ win: Number(row.win), from: Number(row.from_ms) }));
}

function add(map: Map<string, number[]>, key: string, values: number[]) {
  const row = map.get(key);
  if (!row) map.set(key, [...values]);
  else values.forEach((value, i) => (row[i]! += value));
}

function keyed(map: Map<string, number[]>) {
  return [...map.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, values]) => ({ key: key.split(SEP), values }));
}

/**
 * Adds one batch's new facts to the sliding windows they fall in and to the per-source hourly
 * counts, from the batch's hourly deltas: `counts` keyed `source␁hour␁entity` →
 * [requests, successes, timeouts, tokens, failed nodes]; `durations` keyed
 * `source␁metric␁hour␁ms␁entity` → n. Rows are written in key order (no deadlocks between replicas).
 */
export async function writeWindowDeltas(
  client: PoolClient,
  counts: Map<string, number[]>,
  durations: Map<string, number>,
): Promise<void> {
  if (counts.size === 0 && durations.size === 0) return;
  const windows = await lockWindowStarts(client);
  const bySource = new Map<string, number[]>();
  const windowCounts = new Map<string, number[]>();
  for (const [key, values] of counts) {
    const [source, hour, entity] = key.split(SEP) as [string, string, string];
    add(bySource, [hour, source].join(SEP), values);
    const at = Date.parse(hour);
    for (const { win, from } of windows) {
      if (at >= from) add(windowCounts, [win, source, entity].join(SEP), values);
    }
  }
  // One row per value (bucket) for the four windows: position win - 1 of the row holds window win.
  const values = new Map<string, number[]>();
  const buckets = new Map<string, number[]>();
  for (const [key, n] of durations) {
    const [source, metric, hour, ms, entity] = key.split(SEP) as [string, string, string, string, string];
    const at = Date.parse(hour);
    const perWindow = [0, 0, 0, 0];
    for (const { win, from } of windows) if (at >= from) perWindow[win - 1] = n;
    if (perWindow.every((count) => count === 0)) continue;
    add(values, [source, metric, entity, ms].join(SEP), perWindow);
    add(buckets, [source, metric, entity, bucketOf(Number(ms))].join(SEP), perWindow);
  }
  const countSets = `requests = %.requests + EXCLUDED.requests, successes = %.successes + EXCLUDED.successes,
    timeouts = %.timeouts + EXCLUDED.timeouts, tokens = %.tokens + EXCLUDED.tokens,
    failed_nodes = %.failed_nodes + EXCLUDED.failed_nodes`;
  if (bySource.size > 0) {
    const rows = keyed(bySource);
    await client.query(
      `INSERT INTO hourly_source_counts (hour, source, requests, successes, timeouts, tokens, failed_nodes)
       SELECT * FROM unnest($1::timestamptz[], $2::smallint[], $3::bigint[], $4::bigint[], $5::bigint[],
                            $6::bigint[], $7::bigint[])
       ON CONFLICT (hour, source) DO UPDATE SET ${countSets.replaceAll('%', 'hourly_source_counts')}`,
      [
        ...[0, 1].map((i) => rows.map((r) => r.key[i])),
        ...[0, 1, 2, 3, 4].map((i) => rows.map((r) => r.values[i])),
      ],
    );
  }
  if (windowCounts.size > 0) {
    const rows = keyed(windowCounts);
    await client.query(
      `INSERT INTO window_counts (win, source, entity_id, requests, successes, timeouts, tokens, failed_nodes)
       SELECT * FROM unnest($1::smallint[], $2::smallint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
                            $7::bigint[], $8::bigint[])
       ON CONFLICT (win, source, entity_id) DO UPDATE SET ${countSets.replaceAll('%', 'window_counts')}`,
      [
        ...[0, 1, 2].map((i) => rows.map((r) => r.key[i])),
        ...[0, 1, 2, 3, 4].map((i) => rows.map((r) => r.values[i])),
      ],
    );
  }
  for (const [table, column, map] of [
    ['window_values', 'ms', values],
    ['window_buckets', 'bucket', buckets],
  ] as const) {
    if (map.size === 0) continue;
    const rows = keyed(map);
    await client.query(
      `INSERT INTO ${table} (source, metric, entity_id, ${column}, n1, n2, n3, n4)
       SELECT * FROM unnest($1::smallint[], $2::smallint[], $3::text[], $4::integer[], $5::bigint[], $6::bigint[],
                            $7::bigint[], $8::bigint[])
       ON CONFLICT (source, metric, entity_id, ${column}) DO UPDATE SET
         n1 = ${table}.n1 + EXCLUDED.n1, n2 = ${table}.n2 + EXCLUDED.n2,
         n3 = ${table}.n3 + EXCLUDED.n3, n4 = ${table}.n4 + EXCLUDED.n4`,
      [
        ...[0, 1, 2, 3].map((i) => rows.map((r) => r.key[i])),
        ...[0, 1, 2, 3].map((i) => rows.map((r) => r.values[i])),
      ],
    );
  }
}
