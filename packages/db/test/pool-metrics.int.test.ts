import { createLogger } from '@platform/logger';
import { metricsRegistry } from '@platform/telemetry';
import { describe, expect, it } from 'vitest';
import { createPool, type PoolClient } from '../src/index.js';

const ADMIN_URL = process.env.POSTGRES_ADMIN_URL ?? 'postgres://platform:platform@127.0.0.1:55432/postgres';
const logger = createLogger('pool-metrics-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** The pool gauges' values for `pool`, as a scrape collects them. */
async function poolFigures(pool: string) {
  const read = async (name: string, labels: Record<string, string>) => {
    const { values } = await metricsRegistry.getSingleMetric(name)!.get();
    const match = values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
    return match?.value;
  };
  return {
    inUse: await read('pg_pool_connections', { pool, state: 'in_use' }),
    idle: await read('pg_pool_connections', { pool, state: 'idle' }),
    waiting: await read('pg_pool_waiting_clients', { pool }),
    max: await read('pg_pool_max_connections', { pool }),
  };
}

describe('pg pool gauges', () => {
  it('show connections in use, idle and waiting from the pool counters, and drop an ended pool', async () => {
    const name = 'metrics-test';
    const pool = createPool(ADMIN_URL, { logger, max: 2, metricsName: name });
    expect(await poolFigures(name)).toEqual({ inUse: 0, idle: 0, waiting: 0, max: 2 });

    const held: PoolClient[] = [await pool.connect(), await pool.connect()];
    const waiting = pool.query('SELECT 1');
    expect(await poolFigures(name)).toEqual({ inUse: 2, idle: 0, waiting: 1, max: 2 });

    held.pop()!.release();
    await waiting;
    expect(await poolFigures(name)).toEqual({ inUse: 1, idle: 1, waiting: 0, max: 2 });

    held.pop()!.release();
    await pool.end();
    expect(await poolFigures(name)).toEqual({
      inUse: undefined,
      idle: undefined,
      waiting: undefined,
      max: undefined,
    });
  });
});
