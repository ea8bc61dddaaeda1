import pg from 'pg';
import { createLogger, type Logger } from '@platform/logger';
import { failoverClient, HostSelector, multiHostUrl } from './multi-host.js';
import { watchPool } from './pool-metrics.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type QueryResultRow = pg.QueryResultRow;

export interface CreatePoolOptions {
  /** Maximum connections in the pool. Default 10. */
  max?: number;
  /** Server-side `statement_timeout` for every connection; 0 disables. Default 30 000 ms. */
  statementTimeoutMs?: number;
  /** Server-side `idle_in_transaction_session_timeout`; 0 disables. Default 60 000 ms. */
  idleInTransactionTimeoutMs?: number;
  /** Shown in `pg_stat_activity.application_name`. */
  applicationName?: string;
  /**
   * The pool's `pool` label in the pool gauges (`pg_pool_connections` …): `main` unless a process
   * opens a second pool for another purpose. A fixed name, never derived from data.
   */
  metricsName?: string;
  /** How long `connect()`/`query()` wait for a free or new connection. Default 5000 ms. */
  connectionTimeoutMs?: number;
  /** Idle connections are closed after this long. Default 30 000 ms. */
  idleTimeoutMs?: number;
  logger?: Logger;
}

/**
 * A `pg` pool with bounded waits and server-side timeouts, so a stuck query or a leaked transaction
 * cannot hold a connection forever. Errors on idle clients (server restart, network drop) are logged
 * instead of crashing the process; the pool replaces the broken connection on next use.
 */
export function createPool(url: string, options: CreatePoolOptions = {}): Pool {
  const logger = (options.logger ?? createLogger('db')).child({ component: 'pg-pool' });
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? 5000;
  const multi = multiHostUrl(url);
  const config: pg.PoolConfig = {
    // A host list: every connection goes to the host the selector picks (multi-host.ts).
    connectionString: multi ? multi.forHost(multi.hosts[0]!) : url,
    max: options.max ?? 10,
    connectionTimeoutMillis,
    idleTimeoutMillis: options.idleTimeoutMs ?? 30_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs ?? 60_000,
  };
  if (options.applicationName) config.application_name = options.applicationName;
  if (multi) config.Client = failoverClient(new HostSelector(multi, connectionTimeoutMillis));
  const pool = new pg.Pool(config);
  pool.on('error', (err) => {
    logger.error({ err }, 'idle postgres client failed');
  });
  watchPool(pool, options.metricsName ?? 'main');
  return pool;
}

/** Returns `url` (one host) with its database name replaced by `database` (credentials, host and query kept). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
