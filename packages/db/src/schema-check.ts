import { readdirSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Pool } from './pool.js';
import { migrationsDirectory, MIGRATION_FILE_IGNORED } from './migrations-dir.js';

/** What a service's image ships against what its database has applied. */
export interface SchemaStatus {
  /** The image's migrations, oldest first (file names without extension, as node-pg-migrate records them). */
  shipped: string[];
  /** Rows of the migrations table, oldest first; empty when the table does not exist. */
  applied: string[];
  /** Shipped migrations not applied yet: the schema is older than the image needs. */
  missing: string[];
  /** Applied migrations the image does not ship: a newer release migrated ahead (expand-then-contract). */
  unknown: string[];
}

/**
 * The schema is older than this release needs (a shipped migration is not applied). Services exit
 * 78 on it, like on a configuration error: restarting does not help, running the migrate Job does.
 */
export class SchemaBehindError extends Error {
  constructor(
    readonly database: string,
    readonly status: SchemaStatus,
  ) {
    const needed = status.shipped.at(-1) ?? '(none)';
    const applied = status.applied.at(-1) ?? '(none: no migration applied)';
    super(
      `database "${database}" has an older schema than this release needs: newest migration needed ` +
        `${needed}, newest applied ${applied} (${status.missing.length} missing: ${status.missing.join(', ')}). ` +
        `Fix: run this release's migrate Job (node dist/main.js migrate, same image) before rolling out, ` +
        `or start with MIGRATE_ON_START=true.`,
    );
    this.name = 'SchemaBehindError';
  }
}

/** The migrations shipped in `migrationsDir`, ordered by name like node-pg-migrate orders them. */
export function shippedMigrations(migrationsDir: string | URL): string[] {
  const dir = migrationsDirectory(migrationsDir);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && !MIGRATION_FILE_IGNORED.test(entry.name))
    .map((entry) => basename(entry.name, extname(entry.name)))
    .sort();
}

/** Reads the applied migrations (no DDL, no lock: what a runtime role without DDL rights can do). */
export async function readSchemaStatus(
  pool: Pool,
  migrationsDir: string | URL,
  migrationsTable = 'pgmigrations',
): Promise<SchemaStatus> {
  const shipped = shippedMigrations(migrationsDir);
  const table = migrationsTable.replace(/[^A-Za-z0-9_]/g, '');
  const { rows: exists } = await pool.query<{ present: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [table],
  );
  const applied = exists[0]?.present
    ? (await pool.query<{ name: string }>(`SELECT name FROM ${table} ORDER BY id`)).rows.map((r) => r.name)
    : [];
  const appliedSet = new Set(applied);
  const shippedSet = new Set(shipped);
  return {
    shipped,
    applied,
    missing: shipped.filter((name) => !appliedSet.has(name)),
    unknown: applied.filter((name) => !shippedSet.has(name)),
  };
}

/**
 * Refuses (SchemaBehindError) a schema older than the shipped migrations; accepts the current one
 * and a newer one (rows the image does not know: the expand step of a newer release).
 */
export async function assertSchemaCurrent(
  pool: Pool,
  migrationsDir: string | URL,
  migrationsTable = 'pgmigrations',
): Promise<SchemaStatus> {
  const status = await readSchemaStatus(pool, migrationsDir, migrationsTable);
  if (status.missing.length > 0) {
    const { rows } = await pool.query<{ db: string }>('SELECT current_database() AS db');
    throw new SchemaBehindError(rows[0]?.db ?? '?', status);
  }
  return status;
}
