import { withTransaction, type Pool } from '@platform/db';
import type { Logger } from '@platform/logger';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Start of the UTC hour `days` days before `now`: the first hour a window should hold. */
export function windowStart(days: number, now: Date): Date {
  return new Date(Math.floor((now.getTime() - days * DAY_MS) / HOUR_MS) * HOUR_MS);
}

const sums = (columns: string[]) => columns.map((c) => `sum(${c}) AS ${c}`).join(', ');
const COUNT_COLUMNS = ['requests', 'successes', 'timeouts', 'tokens', 'failed_nodes'];

/** Per window table: the rows of the hours in [$2, $3) grouped as the table is, and how to take them off. */
const LEAVING = [
  {
    name: 'window_counts',
    leaving: `SELECT source, entity_id, ${sums(COUNT_COLUMNS)} FROM hourly_counts
               WHERE hour >= $2 AND hour < $3 GROUP BY source, entity_id`,
    match: 'w.source = d.source AND w.entity_id = d.entity_id',
    emptied: 'w.requests <= d.requests',
    subtract: COUNT_COLUMNS.map((c) => `${c} = w.${c} - d.${c}`).join(', '),
  },
  {
    name: 'window_values',
    leaving: `SELECT source, metric, entity_id, ms, sum(n) AS n FROM duration_histogram
               WHERE hour >= $2 AND hour < $3 GROUP BY 1, 2, 3, 4`,
    match: 'w.source = d.source AND w.metric = d.metric AND w.entity_id = d.entity_id AND w.ms = d.ms',
    emptied: 'w.n <= d.n',
    subtract: 'n = w.n - d.n',
  },
  {
    name: 'window_buckets',
    leaving: `SELECT source, metric, entity_id, duration_bucket(ms) AS bucket, sum(n) AS n FROM duration_histogram
               WHERE hour >= $2 AND hour < $3 GROUP BY 1, 2, 3, 4`,
    match:
      'w.source = d.source AND w.metric = d.metric AND w.entity_id = d.entity_id AND w.bucket = d.bucket',
    emptied: 'w.n <= d.n',
    subtract: 'n = w.n - d.n',
  },
];

/**
 * Moves each bounded window (7d, 30d, 90d) up to its current first hour: the hours that left it
 * are subtracted from its counts and histograms (read back from the hourly rollups) and its
 * `from_hour` moves, in one transaction per window. The window's row is locked FOR UPDATE, so
 * replicas never both subtract, and fact batches (FOR SHARE) land wholly before or after.
 * Returns the windows that moved.
 */
export async function advanceWindows(pool: Pool, now: Date): Promise<number[]> {
  const { rows: windows } = await pool.query<{ win: number; days: number }>(
    'SELECT win, days FROM window_state WHERE days IS NOT NULL ORDER BY win',
  );
  const moved: number[] = [];
  for (const { win, days } of windows) {
    const target = windowStart(days, now);
    const done = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ from_hour: Date }>(
        'SELECT from_hour FROM window_state WHERE win = $1 FOR UPDATE',
        [win],
      );
      const from = rows[0]?.from_hour;
      if (!from || from.getTime() >= target.getTime()) return false;
      const range = [win, from, target];
      for (const table of LEAVING) {
        // Rows the leaving hours empty are deleted (first), the others reduced.
        await client.query(
          `DELETE FROM ${table.name} w USING (${table.leaving}) d WHERE w.win = $1 AND ${table.match} AND ${table.emptied}`,
          range,
        );
        await client.query(
          `UPDATE ${table.name} w SET ${table.subtract} FROM (${table.leaving}) d WHERE w.win = $1 AND ${table.match}`,
          range,
        );
      }
      await client.query('UPDATE window_state SET from_hour = $2 WHERE win = $1', [win, target]);
      return true;
    });
    if (done) moved.push(win);
  }
  return moved;
}

/** Runs `advanceWindows` every `intervalMs` (and once now) on this replica; safe on all of them. */
export function startWindowAdvancer(options: {
  pool: Pool;
  logger: Logger;
  intervalMs: number;
  now: () => Date;
}): { stop(): void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    advanceWindows(options.pool, options.now())
      .then((moved) => {
        if (moved.length > 0) options.logger.debug({ windows: moved }, 'sliding windows advanced');
      })
      .catch((error: unknown) =>
        options.logger.warn({ err: error }, 'sliding window advance failed; retrying'),
      )
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
