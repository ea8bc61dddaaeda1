import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { cachedReading, counter, gauge, type CachedReading } from '@platform/telemetry';

/** Rows the relay published (`ok`) or tried to and kept for a retry (`failed`). */
const relayed = counter({
  name: 'outbox_relayed_total',
  help: 'Outbox rows the relay published (ok) or failed to publish and kept for retry (failed)',
  labelNames: ['outcome'] as const,
});

export function countRelayed(outcome: 'ok' | 'failed', rows: number): void {
  if (rows > 0) relayed.inc({ outcome }, rows);
}

/** The backlog figure saturates here: counting stays bounded however far the relay fell behind. */
export const BACKLOG_COUNT_CAP = 100_000;
/** Scrapes within this long share one query (several Prometheus replicas, one Postgres). */
export const GAUGE_CACHE_MS = 5_000;

// Both figures from the primary key's index: the oldest row is the lowest `seq`, and the count
// reads at most BACKLOG_COUNT_CAP index entries.
const BACKLOG_SQL = `
SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT ${BACKLOG_COUNT_CAP}) AS capped)::int AS backlog,
       (SELECT extract(epoch FROM now() - created_at) FROM outbox ORDER BY seq LIMIT 1)::float8 AS oldest_age`;

interface Figures {
  backlog: number;
  oldestAge: number;
}

function outboxReading(pool: Pool, logger: Logger, ttlMs: number): CachedReading<Figures> {
  return cachedReading({
    read: async () => {
      const { rows } = await pool.query<{ backlog: number; oldest_age: number | null }>(BACKLOG_SQL);
      return { backlog: rows[0]?.backlog ?? 0, oldestAge: Math.max(0, rows[0]?.oldest_age ?? 0) };
    },
    initial: { backlog: 0, oldestAge: 0 },
    ttlMs,
    timeoutMs: 2_000,
    logger,
    what: 'outbox backlog',
  });
}

/** Every outbox this process relays (one per service; tests may open several). */
const probes = new Map<Pool, CachedReading<Figures>>();

async function collectAll(): Promise<Figures> {
  const total: Figures = { backlog: 0, oldestAge: 0 };
  for (const [pool, probe] of probes) {
    if (pool.ended) {
      probes.delete(pool);
      continue;
    }
    const figures = await probe.current();
    total.backlog += figures.backlog;
    total.oldestAge = Math.max(total.oldestAge, figures.oldestAge);
  }
  return total;
}

// Both gauges collect on scrape; the probes' cache and single flight make that one query.
gauge({
  name: 'outbox_backlog_rows',
  help: `Rows waiting in the outbox to be published (saturates at ${BACKLOG_COUNT_CAP})`,
  async collect() {
    this.set((await collectAll()).backlog);
  },
});

gauge({
  name: 'outbox_oldest_row_age_seconds',
  help: 'Age of the oldest row waiting in the outbox (0 when it is empty)',
  async collect() {
    this.set((await collectAll()).oldestAge);
  },
});

/** Reports `pool`'s outbox table in the outbox gauges until the pool is ended. */
export function watchOutbox(pool: Pool, logger: Logger, cacheMs = GAUGE_CACHE_MS): void {
  if (!probes.has(pool)) probes.set(pool, outboxReading(pool, logger, cacheMs));
}
