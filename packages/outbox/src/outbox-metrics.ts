import type { Pool } from '@platform/db';
import type { Logger } from '@platform/logger';
import { counter, gauge } from '@platform/telemetry';

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
/** A scrape never waits longer than this on Postgres; it reports the last figures instead. */
const QUERY_TIMEOUT_MS = 2_000;
const LOG_EVERY_MS = 60_000;

// Both figures from the primary key's index: the oldest row is the lowest `seq`, and the count
// reads at most BACKLOG_COUNT_CAP index entries.
const BACKLOG_SQL = `
SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT ${BACKLOG_COUNT_CAP}) AS capped)::int AS backlog,
       (SELECT extract(epoch FROM now() - created_at) FROM outbox ORDER BY seq LIMIT 1)::float8 AS oldest_age`;

interface Figures {
  backlog: number;
  oldestAge: number;
}

/** One outbox table's figures, read at most every `cacheMs`; a failed read keeps the last ones. */
class OutboxProbe {
  private figures: Figures = { backlog: 0, oldestAge: 0 };
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;
  private lastLoggedAt = -Infinity;
  private failuresSinceLog = 0;

  constructor(
    readonly pool: Pool,
    private readonly logger: Logger,
    private readonly cacheMs: number,
  ) {}

  async current(): Promise<Figures> {
    if (performance.now() - this.readAt >= this.cacheMs) {
      this.reading ??= this.read().finally(() => {
        this.reading = undefined;
      });
      await this.reading;
    }
    return this.figures;
  }

  private async read(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const { rows } = await Promise.race([
        this.pool.query<{ backlog: number; oldest_age: number | null }>(BACKLOG_SQL),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('outbox backlog query timed out')), QUERY_TIMEOUT_MS);
        }),
      ]);
      this.figures = { backlog: rows[0]?.backlog ?? 0, oldestAge: Math.max(0, rows[0]?.oldest_age ?? 0) };
    } catch (error) {
      this.logThrottled(error);
    } finally {
      clearTimeout(timer);
      // A failure is not retried at every scrape either: Postgres in trouble gets no extra load.
      this.readAt = performance.now();
    }
  }

  private logThrottled(error: unknown): void {
    this.failuresSinceLog += 1;
    if (performance.now() - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.logger.warn(
      { err: error, failures: this.failuresSinceLog },
      'outbox backlog query failed; the gauges keep their last values',
    );
    this.lastLoggedAt = performance.now();
    this.failuresSinceLog = 0;
  }
}

/** Every outbox this process relays (one per service; tests may open several). */
const probes = new Map<Pool, OutboxProbe>();

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
  if (!probes.has(pool)) probes.set(pool, new OutboxProbe(pool, logger, cacheMs));
}
