import { withTransaction, type Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { rangeStart } from '../domain/analytics/query-contract.js';

/** pg_advisory_xact_lock key of the window advance (any constant unique in this database). */
const ADVANCE_LOCK = 7_364_012;

const sums = (columns: string[]) => columns.map((c) => `sum(${c}) AS ${c}`).join(', ');
const COUNT_COLUMNS = ['requests', 'successes', 'timeouts', 'tokens', 'failed_nodes'];

/** The counts of the hours in [$2, $3), grouped as window_counts is. */
const COUNTS_LEAVING = `SELECT source, entity_id, ${sums(COUNT_COLUMNS)} FROM hourly_counts
  WHERE hour >= $2 AND hour < $3 GROUP BY source, entity_id`;

/** Per histogram table: the rows of the hours in [$1, $2) grouped as the table is. */
const HISTOGRAMS = [
  {
    name: 'window_values',
    leaving: `SELECT source, metric, entity_id, ms, sum(n) AS n FROM duration_histogram
               WHERE hour >= $1 AND hour < $2 GROUP BY 1, 2, 3, 4`,
    match: 'w.source = d.source AND w.metric = d.metric AND w.entity_id = d.entity_id AND w.ms = d.ms',
  },
  {
    name: 'window_buckets',
    leaving: `SELECT source, metric, entity_id, duration_bucket(ms) AS bucket, sum(n) AS n FROM duration_histogram
               WHERE hour >= $1 AND hour < $2 GROUP BY 1, 2, 3, 4`,
    match:
      'w.source = d.source AND w.metric = d.metric AND w.entity_id = d.entity_id AND w.bucket = d.bucket',
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
  for (const { win: id, days } of windows) {
    const win = Number(id);
    const target = rangeStart(days, now);
    const done = await withTransaction(pool, async (client) => {
      // One advance at a time across replicas: windows share histogram rows (a column each), and
      // two advances updating the same rows in different orders could deadlock.
      await client.query('SELECT pg_advisory_xact_lock($1)', [ADVANCE_LOCK]);
      const { rows } = await client.query<{ from_hour: Date }>(
        'SELECT from_hour FROM window_state WHERE win = $1 FOR UPDATE',
        [win],
      );
      const from = rows[0]?.from_hour;
      if (!from || from.getTime() >= target.getTime()) return false;
      const range = [win, from, target];
      // Counts: rows the leaving hours empty are deleted first, the others reduced.
      await client.query(
        `DELETE FROM window_counts w USING (${COUNTS_LEAVING}) d
          WHERE w.win = $1 AND w.source = d.source AND w.entity_id = d.entity_id AND w.requests <= d.requests`,
        range,
      );
      await client.query(
        `UPDATE window_counts w SET ${COUNT_COLUMNS.map((c) => `${c} = w.${c} - d.${c}`).join(', ')}
           FROM (${COUNTS_LEAVING}) d WHERE w.win = $1 AND w.source = d.source AND w.entity_id = d.entity_id`,
        range,
      );
      // Histograms: the window's column only. Rows stay (the all-time column still counts them); a
      // value no longer in the window is read as zero inside its bucket and skipped.
      for (const table of HISTOGRAMS) {
        await client.query(
          `UPDATE ${table.name} w SET n${win} = w.n${win} - d.n FROM (${table.leaving}) d WHERE ${table.match}`,
          [from, target],
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
