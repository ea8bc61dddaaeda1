import { openDatabase, type Pool } from '@platform/db';
import type { ServiceRegistration } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { runService, type BaseServiceConfig } from './run-service.js';

export interface DatabaseServiceOptions<
  C extends BaseServiceConfig & { DATABASE_URL: string; MIGRATE_ON_START: boolean },
> {
  name: string;
  loadConfig: () => C;
  /** The service's migrations folder (SQL files are not compiled, so point at src/). */
  migrations: URL;
  register: (context: { pool: Pool; config: C; logger: Logger; version: string }) => ServiceRegistration[];
}

/**
 * The composition root of a service whose only store is its own Postgres database: migrate, then
 * serve. Services that grow more dependencies move to `runService` with their own wiring.
 */
export function runDatabaseService<
  C extends BaseServiceConfig & { DATABASE_URL: string; MIGRATE_ON_START: boolean },
>(options: DatabaseServiceOptions<C>): Promise<void> {
  const version = process.env.npm_package_version ?? '0.1.0';
  return runService({
    name: options.name,
    loadConfig: options.loadConfig,
    migrations: options.migrations,
    async start({ config, logger }) {
      const pool = await openDatabase(config.DATABASE_URL, options.migrations, {
        logger,
        applicationName: options.name,
        migrate: config.MIGRATE_ON_START,
      });
      return { services: options.register({ pool, config, logger, version }), stop: () => pool.end() };
    },
  });
}
