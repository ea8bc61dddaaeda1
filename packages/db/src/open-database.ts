import type { Logger } from '@platform/logger';
import { runMigrations } from './migrations.js';
import { createPool, type CreatePoolOptions, type Pool } from './pool.js';
import { assertSchemaCurrent } from './schema-check.js';

export interface OpenDatabaseOptions extends CreatePoolOptions {
  logger: Logger;
  /**
   * true (default): apply pending migrations before serving (local stack, tests). false
   * (`MIGRATE_ON_START=false`, production): run no DDL, only check the applied migrations and throw
   * SchemaBehindError when one the image ships is missing; a newer schema is accepted.
   */
  migrate?: boolean;
}

/** A service's start-up step: a pool on its own database, at (or past) the schema it needs. */
export async function openDatabase(
  url: string,
  migrationsDir: string | URL,
  options: OpenDatabaseOptions,
): Promise<Pool> {
  const { migrate = true, ...poolOptions } = options;
  const pool = createPool(url, poolOptions);
  try {
    if (migrate) {
      await runMigrations(pool, migrationsDir, { logger: options.logger });
    } else {
      const status = await assertSchemaCurrent(pool, migrationsDir);
      options.logger.info(
        { applied: status.applied.at(-1), ahead: status.unknown },
        'database schema checked (MIGRATE_ON_START=false)',
      );
    }
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
