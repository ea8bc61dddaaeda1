import type { Pool, PoolClient } from './pool.js';

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

export interface TransactionOptions {
  isolationLevel?: IsolationLevel;
  readOnly?: boolean;
}

/**
 * Runs `fn` inside BEGIN … COMMIT on one pooled connection. If `fn` throws (or COMMIT fails) the
 * transaction is rolled back and the error rethrown, so nothing is half-written. A connection whose
 * ROLLBACK also failed is destroyed rather than returned to the pool in an unknown state.
 */
export async function withTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let destroy: Error | undefined;
  // While checked out, a client has no listener of the pool's: Postgres ending the session (the
  // idle-in-transaction timeout while `fn` waits on something slow, a failover) would emit an
  // uncaught 'error' and end the process. The query in flight fails on its own; the client is
  // destroyed on release.
  const onSessionError = (err: Error) => {
    destroy ??= err;
  };
  client.on('error', onSessionError);
  try {
    try {
      await client.query(beginStatement(options));
    } catch (err) {
      destroy = err as Error;
      throw err;
    }
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        destroy = rollbackError;
      });
      throw err;
    }
  } finally {
    client.off('error', onSessionError);
    client.release(destroy);
  }
}

function beginStatement(options: TransactionOptions): string {
  const parts = ['BEGIN'];
  if (options.isolationLevel) parts.push(`ISOLATION LEVEL ${options.isolationLevel.toUpperCase()}`);
  if (options.readOnly) parts.push('READ ONLY');
  return parts.join(' ');
}
