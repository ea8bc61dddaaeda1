// The MIGRATE_ON_START=false check: an older schema is refused, the current and a newer one pass.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@platform/logger';
import {
  assertSchemaCurrent,
  createPool,
  dropDatabase,
  ensureDatabase,
  openDatabase,
  runMigrations,
  SchemaBehindError,
  shippedMigrations,
  withDatabase,
  type Pool,
} from '../src/index.js';

const BASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://platform:platform@127.0.0.1:55432/platform_test';
const MIGRATIONS = new URL('./fixtures/migrations/', import.meta.url);
const SHIPPED = ['001_create_widgets', '002_widget_color', '003_seed_widget'];
const logger = createLogger('schema-check-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const name = `db_schema_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
let pool: Pool;

beforeAll(async () => {
  await ensureDatabase(BASE_URL, name);
  pool = createPool(withDatabase(BASE_URL, name), { logger, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await dropDatabase(BASE_URL, name);
});

const behind = (error: unknown) => (error instanceof SchemaBehindError ? error : undefined);

describe('the schema check', () => {
  it('lists the shipped migrations by name', () => {
    expect(shippedMigrations(MIGRATIONS)).toEqual(SHIPPED);
  });

  it('refuses an empty database without creating anything, naming the newest needed', async () => {
    const error = behind(await assertSchemaCurrent(pool, MIGRATIONS).catch((e: unknown) => e));
    expect(error?.status.missing).toEqual(SHIPPED);
    expect(error?.message).toContain('newest migration needed 003_seed_widget, newest applied (none');
    await expect(
      openDatabase(withDatabase(BASE_URL, name), MIGRATIONS, { logger, migrate: false }),
    ).rejects.toBeInstanceOf(SchemaBehindError);
    const { rows } = await pool.query("SELECT to_regclass('pgmigrations') AS t, to_regclass('widgets') AS w");
    expect(rows).toEqual([{ t: null, w: null }]);
  });

  it('accepts the current schema and a newer one; refuses one with a migration missing', async () => {
    await runMigrations(pool, MIGRATIONS, { logger });
    expect((await assertSchemaCurrent(pool, MIGRATIONS)).missing).toEqual([]);

    await pool.query("INSERT INTO pgmigrations (name, run_on) VALUES ('004_from_a_newer_release', now())");
    const newer = await assertSchemaCurrent(pool, MIGRATIONS);
    expect(newer.unknown).toEqual(['004_from_a_newer_release']);
    const opened = await openDatabase(withDatabase(BASE_URL, name), MIGRATIONS, { logger, migrate: false });
    await opened.end();

    await pool.query("DELETE FROM pgmigrations WHERE name = '003_seed_widget'");
    const error = behind(await assertSchemaCurrent(pool, MIGRATIONS).catch((e: unknown) => e));
    expect(error?.status.missing).toEqual(['003_seed_widget']);
    expect(error?.message).toContain('newest applied 004_from_a_newer_release');
  });
});
