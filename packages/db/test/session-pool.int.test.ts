// DATABASE_SESSION_URL: the session-bound work (the start-up migration lock, LISTEN) goes through the
// session pool, the queries through the main one (which may be a PgBouncer in transaction mode).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import {
  dropDatabase,
  endWithSessionPool,
  ensureDatabase,
  openDatabase,
  openListenConnection,
  sessionPoolOf,
  withDatabase,
} from '../src/index.js';

const BASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';
const MIGRATIONS = new URL('./fixtures/migrations/', import.meta.url);
const logger = createLogger('session-pool-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const name = `db_session_${randomUUID().replace(/-/g, '').slice(0, 10)}`;

afterAll(async () => {
  await dropDatabase(BASE_URL, name);
});

describe('openDatabase with a session URL', () => {
  it('migrates and LISTENs through the session pool, queries through the main pool', async () => {
    await ensureDatabase(BASE_URL, name);
    const url = withDatabase(BASE_URL, name);
    const pool = await openDatabase(url, MIGRATIONS, { logger, sessionUrl: url });
    const session = sessionPoolOf(pool);
    try {
      expect(session).not.toBe(pool);
      // The migrations ran on a session connection (destroyed after), none on the main pool.
      expect(pool.totalCount).toBe(0);
      const channel = `session_${randomUUID().replace(/-/g, '')}`;
      const payloads: (string | undefined)[] = [];
      const listener = await openListenConnection(pool, channel, {
        onNotification: (payload) => payloads.push(payload),
        onLost: () => undefined,
      });
      expect(session.totalCount).toBe(1);
      await pool.query('SELECT pg_notify($1, $2)', [channel, 'hello']);
      await expect.poll(() => payloads, { timeout: 5_000 }).toEqual(['hello']);
      expect((await pool.query('SELECT name FROM widgets')).rows).toEqual([{ name: 'seeded' }]);
      await listener.close();
    } finally {
      await endWithSessionPool(pool);
    }
    expect(session.ended).toBe(true);
    expect(pool.ended).toBe(true);
  });
});
