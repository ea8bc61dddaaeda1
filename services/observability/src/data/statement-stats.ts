import type { NameOf, SLOW_QUERY_UNAVAILABLE_REASONS } from '@platform/contracts';
import type { Pool } from '@platform/db';

/** The contract's closed set (SLOW_QUERY_UNAVAILABLE_REASONS). */
export type UnavailableReason = NameOf<typeof SLOW_QUERY_UNAVAILABLE_REASONS>;

export interface StatementRow {
  query: string;
  mean_ms: number;
  total_ms: number;
  calls: number;
  rows: number;
  database: string;
}

export type StatementPage =
  { available: true; items: StatementRow[]; total: number } | { available: false; reason: UnavailableReason };

interface Probe {
  preloaded: boolean;
  schema: string | null;
  privileged: boolean;
}

/** Postgres errors that mean the same as a failed probe (a check raced with a change, or a REVOKE). */
function reasonOf(error: unknown): UnavailableReason | undefined {
  const code = (error as { code?: string }).code;
  if (code === '42501') return 'permission_denied';
  if (code === '42P01' || code === '3F000') return 'extension_missing';
  if (code === '55000') return 'not_preloaded';
  return undefined;
}

/**
 * `pg_stat_statements` over the cluster, read through the service's own connection: the view needs
 * the library preloaded, the extension created in this database, and a superuser or a member of
 * `pg_read_all_stats` (anyone else sees other roles' statements as `<insufficient privilege>`).
 */
export async function readStatementStats(
  pool: Pool,
  filter: { thresholdMs: number; databases: string[]; limit: number; offset: number },
): Promise<StatementPage> {
  const { rows } = await pool.query<Probe>(
    // Reading shared_preload_libraries needs pg_read_all_settings; the library's own settings exist
    // for everyone exactly when it was loaded at server start.
    `SELECT current_setting('pg_stat_statements.max', true) IS NOT NULL AS preloaded,
            (SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_stat_statements') AS schema,
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
              OR pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER') AS privileged`,
  );
  const probe = rows[0]!;
  if (!probe.preloaded) return { available: false, reason: 'not_preloaded' };
  if (!probe.schema) return { available: false, reason: 'extension_missing' };
  if (!probe.privileged) return { available: false, reason: 'permission_denied' };
  try {
    const result = await pool.query<StatementRow & { total_count: string }>(
      `SELECT s.query, s.mean_exec_time AS mean_ms, s.total_exec_time AS total_ms,
              s.calls::float8 AS calls, s.rows::float8 AS rows, d.datname AS database,
              count(*) OVER () AS total_count
         FROM ${quoteIdent(probe.schema)}.pg_stat_statements s
         JOIN pg_database d ON d.oid = s.dbid
        WHERE s.mean_exec_time >= $1
          AND NOT d.datistemplate
          AND (cardinality($2::text[]) = 0 OR d.datname = ANY ($2::text[]))
        ORDER BY s.mean_exec_time DESC, s.queryid
        LIMIT $3 OFFSET $4`,
      [filter.thresholdMs, filter.databases, filter.limit, filter.offset],
    );
    let total = Number(result.rows[0]?.total_count ?? 0);
    if (result.rows.length === 0 && filter.offset > 0)
      total = await countStatements(pool, probe.schema, filter);
    return {
      available: true,
      total,
      items: result.rows.map(({ total_count: _total, ...row }) => row),
    };
  } catch (error) {
    const reason = reasonOf(error);
    if (reason) return { available: false, reason };
    throw error;
  }
}

async function countStatements(
  pool: Pool,
  schema: string,
  filter: { thresholdMs: number; databases: string[] },
): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${quoteIdent(schema)}.pg_stat_statements s
       JOIN pg_database d ON d.oid = s.dbid
      WHERE s.mean_exec_time >= $1 AND NOT d.datistemplate
        AND (cardinality($2::text[]) = 0 OR d.datname = ANY ($2::text[]))`,
    [filter.thresholdMs, filter.databases],
  );
  return Number(rows[0]?.n ?? 0);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
