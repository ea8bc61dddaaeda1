import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { gauge } from '@platform/telemetry';

/** Scrapes within this long share one query (several Prometheus replicas, one cheap read). */
const CACHE_MS = 5_000;
/** A slow database must not hold the scrape: past this the last figures are served. */
const QUERY_TIMEOUT_MS = 2_000;
/** A failing query is logged at most this often. */
const LOG_EVERY_MS = 60_000;

interface QueueFigures {
  queued: number;
  oldestAgeSeconds: number;
}

let source: { pool: Pool; logger: Logger } | undefined;
let figures: QueueFigures = { queued: 0, oldestAgeSeconds: 0 };
let readAt = 0;
let reading: Promise<void> | undefined;
let loggedAt = 0;

/**
 * `workflow_runs_queued` and `workflow_oldest_queued_run_age_seconds`: collected on scrape from ONE
 * query over the partial index `workflow_runs_queued_idx` (only queued rows), cached `CACHE_MS`.
 * The figures are the database's, so every replica reports the same global value (aggregate with
 * max, not sum). A failed or slow query keeps the last figures (logged at most once a minute): a
 * scrape never fails because of it.
 */
export function watchRunQueue(pool: Pool, logger: Logger): void {
  source = { pool, logger };
}

async function refresh(): Promise<void> {
  if (!source || Date.now() - readAt < CACHE_MS) return;
  reading ??= readFigures(source).finally(() => {
    reading = undefined;
  });
  await reading;
}

async function readFigures(from: { pool: Pool; logger: Logger }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const query = from.pool.query<{ queued: string; oldest_age: number | null }>(
      `SELECT count(*) AS queued, extract(epoch FROM now() - min(created_at))::float8 AS oldest_age
         FROM workflow_runs WHERE status = 'queued'`,
    );
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${QUERY_TIMEOUT_MS} ms`)), QUERY_TIMEOUT_MS);
    });
    query.catch(() => undefined);
    const { rows } = await Promise.race([query, timeout]);
    figures = {
      queued: Number(rows[0]?.queued ?? 0),
      oldestAgeSeconds: Math.max(0, rows[0]?.oldest_age ?? 0),
    };
    readAt = Date.now();
  } catch (error) {
    if (Date.now() - loggedAt >= LOG_EVERY_MS) {
      loggedAt = Date.now();
      from.logger.warn({ err: error }, 'run queue gauges not refreshed; serving the last figures');
    }
  } finally {
    clearTimeout(timer);
  }
}

gauge({
  name: 'workflow_runs_queued',
  help: 'Runs queued and not yet claimed, over the whole database (every replica reports the same value).',
  async collect() {
    await refresh();
    this.set(figures.queued);
  },
});

gauge({
  name: 'workflow_oldest_queued_run_age_seconds',
  help: 'Age of the oldest queued run (0 when none), over the whole database (same on every replica).',
  async collect() {
    await refresh();
    this.set(figures.oldestAgeSeconds);
  },
});
