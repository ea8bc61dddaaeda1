import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import {
  createPool,
  dropDatabase,
  openDatabase,
  schemaVersion,
  ensureDatabase,
  runMigrations,
  withDatabase,
  withTransaction,
  type Pool,
} from '../src/index.js';

const BASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';
const MIGRATIONS = new URL('./fixtures/migrations/', import.meta.url);
const EXPECTED = ['001_create_widgets', '002_widget_color', '003_seed_widget'];
const logger = createLogger('db-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const run = randomUUID().replace(/-/g, '').slice(0, 10);
const databases = [`db_pkg_${run}_a`, `db_pkg_${run}_b`];

describe('@platform/db', () => {
  let pool: Pool;

  beforeAll(async () => {
    expect(await ensureDatabase(BASE_URL, databases[0]!)).toBe(true);
    expect(await ensureDatabase(BASE_URL, databases[0]!)).toBe(false);
    pool = createPool(withDatabase(BASE_URL, databases[0]!), {
      logger,
      applicationName: 'db-pkg-test',
      max: 4,
    });
  });

  afterAll(async () => {
    await pool?.end();
    for (const name of databases) await dropDatabase(BASE_URL, name);
  });

  it('applies migrations once; a second run applies nothing', async () => {
    expect(await runMigrations(pool, MIGRATIONS, { logger })).toEqual(EXPECTED);
    expect(await runMigrations(pool, MIGRATIONS, { logger })).toEqual([]);
    const { rows } = await pool.query('SELECT name, color FROM widgets');
    expect(rows).toEqual([{ name: 'seeded', color: 'red' }]);
    const applied = await pool.query('SELECT name FROM pgmigrations ORDER BY id');
    expect(applied.rows.map((r) => r.name)).toEqual(EXPECTED);
  });

  it('lets two concurrent runners share one database without colliding', async () => {
    const name = databases[1]!;
    await ensureDatabase(BASE_URL, name);
    const url = withDatabase(BASE_URL, name);
    const other = createPool(url, { logger, max: 2 });
    try {
      const results = await Promise.all([
        runMigrations(other, MIGRATIONS, { logger }),
        runMigrations(url, MIGRATIONS, { logger }),
      ]);
      const sorted = results.map((r) => r.length).sort();
      expect(sorted).toEqual([0, EXPECTED.length]);
      expect(results.flat()).toEqual(EXPECTED);
      const applied = await other.query('SELECT count(*)::int AS n FROM pgmigrations');
      expect(applied.rows[0].n).toBe(EXPECTED.length);
      const seeded = await other.query('SELECT count(*)::int AS n FROM widgets');
      expect(seeded.rows[0].n).toBe(1);
      // the pool's borrowed connection was discarded, and its statement_timeout is intact
      const timeout = await other.query('SHOW statement_timeout');
      expect(timeout.rows[0].statement_timeout).toBe('30s');
    } finally {
      await other.end();
    }
  });

  it('reports the schema version and opens a migrated pool in one step', async () => {
    expect(await schemaVersion(pool)).toBe('003_seed_widget');
    const opened = await openDatabase(withDatabase(BASE_URL, databases[0]!), MIGRATIONS, { logger, max: 1 });
    try {
      expect(await schemaVersion(opened)).toBe('003_seed_widget');
    } finally {
      await opened.end();
    }
  });

  it('rejects a missing migrations directory', async () => {
    await expect(runMigrations(pool, '/nonexistent/migrations', { logger })).rejects.toThrow(/not found/);
  });

  it('commits a transaction that succeeds', async () => {
    const id = await withTransaction(pool, async (client) => {
      const { rows } = await client.query("INSERT INTO widgets (name) VALUES ('committed') RETURNING id");
      return rows[0].id as string;
    });
    const { rows } = await pool.query('SELECT name FROM widgets WHERE id = $1', [id]);
    expect(rows).toEqual([{ name: 'committed' }]);
  });

  it('rolls back a transaction that throws, leaving no rows', async () => {
    await expect(
      withTransaction(pool, async (client) => {
        await client.query("INSERT INTO widgets (name) VALUES ('half-1')");
        await client.query("INSERT INTO widgets (name) VALUES ('half-2')");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(
      withTransaction(pool, async (client) => {
        await client.query("INSERT INTO widgets (name) VALUES ('half-3')");
        await client.query("INSERT INTO widgets (name) VALUES ('seeded')"); // unique violation
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await pool.query("SELECT count(*)::int AS n FROM widgets WHERE name LIKE 'half-%'");
    expect(rows[0].n).toBe(0);
    // the pool is still healthy afterwards
    expect(pool.totalCount).toBeLessThanOrEqual(4);
    const ok = await pool.query('SELECT 1 AS one');
    expect(ok.rows[0].one).toBe(1);
  });

  it('supports isolation levels and read-only transactions', async () => {
    const level = await withTransaction(
      pool,
      async (client) => (await client.query('SHOW transaction_isolation')).rows[0].transaction_isolation,
      { isolationLevel: 'serializable' },
    );
    expect(level).toBe('serializable');
    await expect(
      withTransaction(pool, (client) => client.query("INSERT INTO widgets (name) VALUES ('ro')"), {
        readOnly: true,
      }),
    ).rejects.toMatchObject({ code: '25006' });
  });

  it('applies statement_timeout and application_name to pooled connections', async () => {
    const strict = createPool(withDatabase(BASE_URL, databases[0]!), {
      logger,
      statementTimeoutMs: 100,
      applicationName: 'db-pkg-strict',
    });
    try {
      await expect(strict.query('SELECT pg_sleep(1)')).rejects.toMatchObject({ code: '57014' });
      const { rows } = await strict.query('SHOW application_name');
      expect(rows[0].application_name).toBe('db-pkg-strict');
    } finally {
      await strict.end();
    }
  });
  it('survives Postgres ending a transaction left idle: the transaction fails, the process and the pool go on', async () => {
    const strict = createPool(withDatabase(BASE_URL, databases[0]!), {
      logger,
      max: 1,
      idleInTransactionTimeoutMs: 200,
    });
    try {
      await expect(
        withTransaction(strict, async (client) => {
          await client.query('SELECT 1');
          // Waiting on something slow inside the transaction (a peer, a broker) past the limit.
          await new Promise((resolve) => setTimeout(resolve, 800));
          await client.query('SELECT 1');
        }),
      ).rejects.toBeInstanceOf(Error);
      // The ended session was destroyed, not handed back: the next transaction gets a live one.
      await expect(
        withTransaction(strict, async (client) => (await client.query('SELECT 2 AS n')).rows),
      ).resolves.toEqual([{ n: 2 }]);
    } finally {
      await strict.end();
    }
  });
});
