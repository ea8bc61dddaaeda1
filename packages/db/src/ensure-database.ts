import { newClient } from './multi-host.js';

const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

/**
 * Creates database `name` if it does not exist, connecting with `adminUrl` (any database the user
 * can reach, typically `postgres`). Returns true when it was created. Concurrent callers are fine:
 * losing the race to create it counts as "already exists".
 */
export async function ensureDatabase(adminUrl: string, name: string): Promise<boolean> {
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name: ${name}`);
  const client = newClient(adminUrl);
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // 42P04 duplicate_database; 23505 when two CREATE DATABASE race on pg_database's unique index.
      if (code === '42P04' || code === '23505') return false;
      throw err;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops database `name` if it exists, terminating other sessions on it first (tests only). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name: ${name}`);
  const client = newClient(adminUrl);
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
