import type { Logger } from '@platform/logger';
import { runMigrations } from './migrations.js';
import { createPool, type CreatePoolOptions, type Pool } from './pool.js';

/** A service's start-up step: a pool on its own database, migrated to the newest schema. */
export async function openDatabase(
  url: string,
  migrationsDir: string | URL,
  options: CreatePoolOptions & { logger: Logger },
): Promise<Pool> {
  const pool = createPool(url, options);
  try {
    await runMigrations(pool, migrationsDir, { logger: options.logger });
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
