import { z } from 'zod';
import { env } from './env-types.js';
import { loadConfig } from './load-config.js';

/**
 * Whether the service brings its own store's schema up to date at start (default true: the local
 * stack, compose and tests). Production says false and runs the `migrate` Job before the rollout;
 * the service then only checks the schema and refuses (exit 78) one older than it needs.
 */
export const migrateOnStartShape = {
  MIGRATE_ON_START: env.boolean(true),
};

/** A Postgres service's database variables (deploy/README.md "Migrations", docs/development.md). */
export const postgresShape = {
  DATABASE_URL: env.postgresUrl(),
  /**
   * The connections that need a Postgres session of their own (LISTEN), when DATABASE_URL goes
   * through a transaction-pooling PgBouncer: a direct or session-pooled URL. Unset: DATABASE_URL.
   */
  DATABASE_SESSION_URL: env.postgresUrl().optional(),
  ...migrateOnStartShape,
};

/**
 * What `node dist/main.js migrate` reads, and nothing else (no service keys): the owner role's
 * URL (direct or session-pooled: the migration lock is a session advisory lock), and the runtime
 * role to grant DML to, if the deployment separates the two.
 */
export const migrateCommandShape = {
  LOG_LEVEL: env.logLevel(),
  DATABASE_URL: env.postgresUrl(),
  DATABASE_RUNTIME_ROLE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,62}$/, 'must be a role name (letters, digits, _ and -)')
    .optional(),
};

const migrateCommandSchema = z.object(migrateCommandShape);
export type MigrateCommandConfig = z.infer<typeof migrateCommandSchema>;

/** The migrate command's config (ConfigError naming the variable, like a service's). */
export function loadMigrateCommandConfig(
  service: string,
  source: Record<string, string | undefined> = process.env,
): MigrateCommandConfig {
  return loadConfig(service, migrateCommandSchema, source);
}
