import { gauge } from '@platform/telemetry';
import type pg from 'pg';

/**
 * The pools this process opened, by name (`main` unless the caller names it: a closed set per
 * service). Read on scrape from the pool's own counters, no query. Several pools of one name (a
 * test process) are summed; an ended pool drops out.
 */
const pools = new Map<pg.Pool, string>();

function totals(): Map<string, { inUse: number; idle: number; waiting: number; max: number }> {
  const byName = new Map<string, { inUse: number; idle: number; waiting: number; max: number }>();
  for (const [pool, name] of pools) {
    if (pool.ended) {
      pools.delete(pool);
      continue;
    }
    const sums = byName.get(name) ?? { inUse: 0, idle: 0, waiting: 0, max: 0 };
    sums.inUse += pool.totalCount - pool.idleCount;
    sums.idle += pool.idleCount;
    sums.waiting += pool.waitingCount;
    sums.max += pool.options.max ?? 10;
    byName.set(name, sums);
  }
  return byName;
}

gauge({
  name: 'pg_pool_connections',
  help: 'Connections of a Postgres pool, by state (in_use: checked out, idle: open and free)',
  labelNames: ['pool', 'state'] as const,
  collect() {
    this.reset();
    for (const [pool, sums] of totals()) {
      this.set({ pool, state: 'in_use' }, sums.inUse);
      this.set({ pool, state: 'idle' }, sums.idle);
    }
  },
});

gauge({
  name: 'pg_pool_waiting_clients',
  help: 'Queries and checkouts waiting for a free connection of a Postgres pool',
  labelNames: ['pool'] as const,
  collect() {
    this.reset();
    for (const [pool, sums] of totals()) this.set({ pool }, sums.waiting);
  },
});

gauge({
  name: 'pg_pool_max_connections',
  help: 'Most connections a Postgres pool opens',
  labelNames: ['pool'] as const,
  collect() {
    this.reset();
    for (const [pool, sums] of totals()) this.set({ pool }, sums.max);
  },
});

/** Reports `pool` in the pool gauges under `name` until it is ended. */
export function watchPool(pool: pg.Pool, name: string): void {
  pools.set(pool, name);
}
