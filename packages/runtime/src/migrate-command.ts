import { loadMigrateCommandConfig } from '@platform/config';
import { createPool, grantRuntimeRole, readSchemaStatus, runMigrations } from '@platform/db';
import type { ServiceCommand } from './commands.js';

/**
 * `node dist/main.js migrate`: applies the service's pending migrations (each one logged) and, with
 * DATABASE_RUNTIME_ROLE, grants that role DML rights on the result. Reads only DATABASE_URL (the
 * owner role's; TLS through its `sslmode`/`sslrootcert` parameters) and the role: a Job needs none of the
 * service's keys. Two at once are safe (the migration advisory lock: the second waits, then finds
 * nothing to do); exits 0 when the schema is already current.
 */
export function migrateCommand(migrations: URL): ServiceCommand {
  return async ({ name, logger }) => {
    const config = loadMigrateCommandConfig(name);
    const applied = await runMigrations(config.DATABASE_URL, migrations, { logger });
    if (config.DATABASE_RUNTIME_ROLE) {
      await grantRuntimeRole(config.DATABASE_URL, config.DATABASE_RUNTIME_ROLE, { logger });
    }
    const pool = createPool(config.DATABASE_URL, { logger, max: 1, metricsName: 'migrate' });
    try {
      const status = await readSchemaStatus(pool, migrations);
      logger.info(
        { applied: applied.length, schema: status.applied.at(-1) ?? '', ahead: status.unknown },
        applied.length > 0 ? 'schema migrated' : 'schema already current',
      );
    } finally {
      await pool.end();
    }
  };
}
