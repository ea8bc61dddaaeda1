import pg from 'pg';
import { createLogger, type Logger } from '@platform/logger';

/** A role name we quote ourselves: letters, digits, `_`, `-` (no quoting games with user input). */
const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,62}$/;

/** Serializes grants of concurrent migrate runs (concurrent GRANTs on one object can fail). */
const GRANT_LOCK = "hashtext('platform.grant-runtime-role')";

export interface GrantRuntimeRoleOptions {
  logger?: Logger;
  /** The migrations bookkeeping table: the runtime role may read it (the schema check), not write it. */
  migrationsTable?: string;
}

/**
 * Gives `role` what a service needs at run time and nothing more: CONNECT, USAGE on `public`,
 * SELECT/INSERT/UPDATE/DELETE on its tables, USAGE/SELECT/UPDATE on its sequences, EXECUTE on its
 * functions; and, with ALTER DEFAULT PRIVILEGES, the same on every object later migrations create
 * (as long as they run as the same owner role, the one connected here). No CREATE anywhere: `CREATE`
 * on `public` is revoked from PUBLIC (the default before Postgres 15). Idempotent.
 */
export async function grantRuntimeRole(
  ownerUrl: string,
  role: string,
  options: GrantRuntimeRoleOptions = {},
): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`invalid runtime role name: ${role}`);
  const logger = (options.logger ?? createLogger('db')).child({ component: 'runtime-role' });
  const grantee = `"${role}"`;
  const migrationsTable = (options.migrationsTable ?? 'pgmigrations').replace(/[^A-Za-z0-9_]/g, '');
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string; exists: boolean }>(
      'SELECT current_database() AS db, EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS exists',
      [role],
    );
    const { db, exists } = rows[0]!;
    if (!exists) throw new Error(`runtime role "${role}" does not exist: create it first (deploy/README.md)`);
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(${GRANT_LOCK})`);
    for (const statement of grantStatements(grantee, `"${db.replace(/"/g, '""')}"`, migrationsTable)) {
      await client.query(statement);
    }
    await client.query('COMMIT');
    logger.info({ role, database: db }, 'runtime role granted DML, sequence and EXECUTE rights (no DDL)');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function grantStatements(grantee: string, database: string, migrationsTable: string): string[] {
  return [
    `GRANT CONNECT ON DATABASE ${database} TO ${grantee}`,
    'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
    `GRANT USAGE ON SCHEMA public TO ${grantee}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${grantee}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${grantee}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${grantee}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${grantee}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${grantee}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO ${grantee}`,
    // The schema check reads the migrations table; only the migrate command writes it.
    `DO $$ BEGIN
       IF to_regclass('${migrationsTable}') IS NOT NULL THEN
         EXECUTE 'REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${migrationsTable} FROM ${grantee.replace(/'/g, "''")}';
       END IF;
     END $$`,
  ];
}
