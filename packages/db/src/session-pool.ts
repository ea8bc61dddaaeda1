import type { Pool } from './pool.js';

/**
 * The pool a service's session-bound connections come from, per main pool. Behind a PgBouncer in
 * transaction mode the main pool (DATABASE_URL) hands out a different server connection for every
 * transaction, so a LISTEN or a session advisory lock taken through it is lost at once; these go
 * through a pool on DATABASE_SESSION_URL (direct, or a session-mode pooler) instead.
 */
const sessionPools = new WeakMap<Pool, Pool>();

/** Session-bound work of `pool` (LISTEN) goes through `sessionPool` from now on. */
export function attachSessionPool(pool: Pool, sessionPool: Pool): void {
  sessionPools.set(pool, sessionPool);
}

/** The pool for session-bound work of `pool`: its attached session pool, else itself. */
export function sessionPoolOf(pool: Pool): Pool {
  return sessionPools.get(pool) ?? pool;
}
