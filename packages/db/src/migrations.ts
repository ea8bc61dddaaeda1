import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { createLogger, type Logger } from '@platform/logger';
import { migrationsDirectory, MIGRATION_IGNORE_PATTERN } from './migrations-dir.js';
import type { Pool } from './pool.js';
import { newClient } from './multi-host.js';
import { SQL_WITH_INCLUDES } from './sql-includes.js';

export interface RunMigrationsOptions {
  logger?: Logger;
  /** Bookkeeping table. Default `pgmigrations` (node-pg-migrate's own default). */
  migrationsTable?: string;
  /** Apply each pending migration in its own transaction instead of all in one. Default false. */
  transactionPerMigration?: boolean;
}

/**
 * Applies pending `up` migrations from `migrationsDir` (SQL files with `-- Up Migration` /
 * `-- Down Migration` sections and `-- @include` lines, or JS/TS files exporting `up`/`down`,
 * ordered by file name) with
 * node-pg-migrate, and returns the names applied (empty when up to date).
 *
 * Safe when several replicas start at once: node-pg-migrate takes a session-level advisory lock,
 * and we ask it to wait for the lock rather than fail, so the second replica blocks until the
 * first has finished and then finds nothing left to do. By default all pending migrations run in
 * one transaction, so a failing migration leaves the schema as it was.
 *
 * With a pool, one connection is borrowed, `statement_timeout` is lifted for it (migrations and the
 * lock wait can be slow) and the connection is discarded afterwards rather than reused.
 */
export async function runMigrations(
  target: Pool | string,
  migrationsDir: string | URL,
  options: RunMigrationsOptions = {},
): Promise<string[]> {
  const logger = (options.logger ?? createLogger('db')).child({ component: 'migrations' });
  const dir = migrationsDirectory(migrationsDir);

  const ownClient = typeof target === 'string' ? newClient(target) : undefined;
  const client = ownClient ?? (await (target as Pool).connect());
  let failure: Error | undefined;
  try {
    if (ownClient) await ownClient.connect();
    else await client.query('SET statement_timeout = 0');
    const applied = await runner({
      dbClient: client,
      dir,
      ignorePattern: MIGRATION_IGNORE_PATTERN,
      // SQL files may `-- @include` DDL a package owns (sql-includes.ts); other kinds load as usual.
      migrationLoaderStrategies: SQL_WITH_INCLUDES,
      direction: 'up',
      migrationsTable: options.migrationsTable ?? 'pgmigrations',
      singleTransaction: !options.transactionPerMigration,
      advisoryLockMode: 'wait',
      checkOrder: true,
      logger: {
        debug: (msg) => logger.debug(msg),
        info: (msg) => logStep(logger, msg),
        warn: (msg) => logger.warn(msg),
        error: (msg) => logger.error(msg),
      },
    });
    const names = applied.map((m) => m.name);
    if (names.length > 0) logger.info({ migrations: names }, 'applied migrations');
    else logger.debug('database schema up to date');
    return names;
  } catch (err) {
    failure = err as Error;
    throw err;
  } finally {
    if (ownClient) await ownClient.end().catch(() => undefined);
    // Destroy rather than recycle: the session may carry settings a migration changed.
    else (client as pg.PoolClient).release(failure ?? true);
  }
}

const MIGRATION_STEP = /^### MIGRATION (.+) \((UP|DOWN)\) ###$/;

/** node-pg-migrate's line before each migration becomes one info record naming it; the rest is debug. */
function logStep(logger: Logger, message: string): void {
  const step = MIGRATION_STEP.exec(message.trim());
  if (step) logger.info({ migration: step[1], direction: step[2]!.toLowerCase() }, 'applying migration');
  else logger.debug(message);
}
