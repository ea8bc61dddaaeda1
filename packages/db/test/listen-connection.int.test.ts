// openListenConnection against a real Postgres: notifications arrive; a killed backend is reported
// once and released once (pg can emit 'error' repeatedly on a dropped connection); close is
// idempotent and never releases twice.
import { createLogger } from '@platform/logger';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, openListenConnection, type Pool } from '../src/index.js';

const logger = createLogger('listen-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const channel = `listen_test_${randomUUID().replace(/-/g, '')}`;
const BASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';

// (@platform/testing depends on this package, so its waitUntil is not used here)
async function waitUntil(check: () => true | undefined, timeoutMs: number, failure: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(failure);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
let pool: Pool;

beforeAll(() => {
  pool = createPool(BASE_URL, { logger });
});

afterAll(async () => {
  await pool.end();
});

async function killListener(): Promise<number> {
  const { rowCount } = await pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
    [`LISTEN ${channel}`],
  );
  return rowCount ?? 0;
}

describe('openListenConnection', () => {
  it('delivers notifications, reports a lost connection once, and closes without a second release', async () => {
    const payloads: (string | undefined)[] = [];
    const lost: Error[] = [];
    const connection = await openListenConnection(pool, channel, {
      onNotification: (payload) => payloads.push(payload),
      onLost: (error) => lost.push(error),
    });
    await pool.query(`SELECT pg_notify($1, 'hello')`, [channel]);
    await waitUntil(() => (payloads.length > 0 ? true : undefined), 5_000, 'no notification');
    expect(payloads).toEqual(['hello']);
    expect(connection.alive).toBe(true);

    expect(await killListener()).toBe(1);
    await waitUntil(() => (lost.length > 0 ? true : undefined), 5_000, 'loss not reported');
    expect(connection.alive).toBe(false);
    await connection.close();
    await connection.close();
    // Absences (the point): no second loss report and no notification after close, within 200 ms.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lost).toHaveLength(1);
    // the pool still works: nothing was released twice into it
    expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
    await pool.query(`SELECT pg_notify($1, 'after')`, [channel]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(payloads).toEqual(['hello']);
  });

  it('a LISTEN that fails releases its connection and rejects', async () => {
    const before = pool.totalCount;
    await expect(
      openListenConnection(pool, 'not a channel', {
        onNotification: () => undefined,
        onLost: () => undefined,
      }),
    ).rejects.toThrow();
    expect(pool.totalCount).toBeLessThanOrEqual(before);
    expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
  });
});
