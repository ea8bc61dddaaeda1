import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { cachedReading, gauge, type CachedReading } from '@platform/telemetry';

interface QueueFigures {
  queued: number;
  oldestAgeSeconds: number;
}

const NONE: QueueFigures = { queued: 0, oldestAgeSeconds: 0 };
let reading: CachedReading<QueueFigures> | undefined;

/**
 * `workflow_runs_queued` and `workflow_oldest_queued_run_age_seconds`: collected on scrape from ONE
 * query over the partial index `workflow_runs_queued_idx` (only queued rows), shared for 5 s.
 * The figures are the database's, so every replica reports the same global value (aggregate with
 * max, not sum). A failed or slow (2 s) query keeps the last figures, logged at most once a minute:
 * a scrape never fails because of it.
 */
export function watchRunQueue(pool: Pool, logger: Logger): void {
  reading = cachedReading({
    what: 'run queue figures',
    initial: NONE,
    ttlMs: 5_000,
    timeoutMs: 2_000,
    logger,
    read: async () => {
      const { rows } = await pool.query<{ queued: string; oldest_age: number | null }>(
        `SELECT count(*) AS queued, extract(epoch FROM now() - min(created_at))::float8 AS oldest_age
           FROM workflow_runs WHERE status = 'queued'`,
      );
      return {
        queued: Number(rows[0]?.queued ?? 0),
        oldestAgeSeconds: Math.max(0, rows[0]?.oldest_age ?? 0),
      };
    },
  });
}

const figures = async (): Promise<QueueFigures> => (reading ? reading.current() : NONE);

gauge({
  name: 'workflow_runs_queued',
  help: 'Runs queued and not yet claimed, over the whole database (every replica reports the same value).',
  async collect() {
    this.set((await figures()).queued);
  },
});

gauge({
  name: 'workflow_oldest_queued_run_age_seconds',
  help: 'Age of the oldest queued run (0 when none), over the whole database (same on every replica).',
  async collect() {
    this.set((await figures()).oldestAgeSeconds);
  },
});
