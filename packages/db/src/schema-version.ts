import type { Pool } from './pool.js';

/** Name of the newest applied migration (what a service reports as its schema version). */
export async function schemaVersion(pool: Pool, migrationsTable = 'pgmigrations'): Promise<string> {
  const table = migrationsTable.replace(/[^A-Za-z0-9_]/g, '');
  const { rows } = await pool.query<{ name: string }>(
    `SELECT name FROM ${table} ORDER BY run_on DESC, id DESC LIMIT 1`,
  );
  return rows[0]?.name ?? '';
}
