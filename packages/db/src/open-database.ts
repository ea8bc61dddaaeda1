import type { Logger } from '@platform/logger';
import { runMigrations } from './migrations.js';
import { createPool, type CreatePoolOptions, type Pool } from './pool.js';
import { assertSchemaCurrent } from './schema-check.js';
import { attachSessionPool, sessionPoolOf } from './session-pool.js';

export interface OpenDatabaseOptions extends CreatePoolOptions {
  logger: Logger;
  /**
   * true (default): apply pending migrations before serving (local stack, tests). false
   * (`MIGRATE_ON_START=false`, production): run no DDL, only check the applied migrations and throw
   * SchemaBehindError when one the image ships is missing; a newer schema is accepted.
   */
  migrate?: boolean;
  /**
   * DATABASE_SESSION_URL: when set, a second small pool on it carries the session-bound work (the
   * migration advisory lock at start, LISTEN); `sessionPoolOf(pool)` returns it. End it with the main
   * pool (`endWithSessionPool`).
   */
  sessionUrl?: string;
}

/** Most LISTEN connections one process holds (the outbox relay, the run event listener) plus slack. */
const SESSION_POOL_MAX = 4;

/** A service's start-up step: a pool on its own database, at (or past) the schema it needs. */
export async function openDatabase(
  url: string,
  migrationsDir: string | URL,
  options: OpenDatabaseOptions,
): Promise<Pool> {
  const { migrate = true, sessionUrl, ...poolOptions } = options;
  const pool = createPool(url, poolOptions);
  if (sessionUrl) {
    const session = createPool(sessionUrl, { ...poolOptions, max: SESSION_POOL_MAX, metricsName: 'session' });
    attachSessionPool(pool, session);
  }
  try {
    if (migrate) {
      await runMigrations(sessionPoolOf(pool), migrationsDir, { logger: options.logger });
    } else {
      const status = await assertSchemaCurrent(pool, migrationsDir);
      options.logger.info(
        { applied: status.applied.at(-1), ahead: status.unknown },
        'database schema checked (MIGRATE_ON_START=false)',
      );
    }
    return pool;
  } catch (error) {
    await endWithSessionPool(pool).catch(() => undefined);
    throw error;
  }
}

/** Ends `pool` and its session pool, if one is attached. */
export async function endWithSessionPool(pool: Pool): Promise<void> {
  const session = sessionPoolOf(pool);
  await pool.end();
  if (session !== pool) await session.end();
}
