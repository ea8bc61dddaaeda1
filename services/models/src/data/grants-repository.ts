import type { PoolClient, QueryResultRow } from '@platform/db';

/** A pool or a transaction client. */
export interface Db {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

export interface GrantRow {
  id: string;
  team_id: string;
  model_id: string;
  is_enabled: boolean;
  /** bigint columns come back as strings (exact); the domain turns them into numbers. */
  token_quota: string | null;
  request_quota: string | null;
  created_at: Date;
  updated_at: Date;
  model_name: string;
  model_provider: string;
  model_provider_display_name: string | null;
  model_type: string;
  model_is_enabled: boolean;
  used_tokens: string;
  used_requests: string;
}

export interface GrantValues {
  isEnabled: boolean;
  tokenQuota: number | null;
  requestQuota: number | null;
}

/** A grant with its model and the counters of the period starting `$period` (a date). */
const GRANT_VIEW = `
  SELECT g.id, g.team_id, g.model_id, g.is_enabled, g.token_quota, g.request_quota, g.created_at, g.updated_at,
         m.name AS model_name, m.provider AS model_provider,
         m.provider_display_name AS model_provider_display_name, m.model_type, m.is_enabled AS model_is_enabled,
         coalesce(c.tokens, 0) AS used_tokens, coalesce(c.requests, 0) AS used_requests
    FROM team_model_grants g
    JOIN models m ON m.id = g.model_id
    LEFT JOIN model_usage_counters c
      ON c.team_id = g.team_id AND c.model_id = g.model_id AND c.period_start = $1::date`;

export async function listGrants(
  db: Db,
  teamId: string,
  periodStart: string,
  paging: { limit: number; offset: number },
): Promise<{ rows: GrantRow[]; total: number }> {
  const { rows } = await db.query<GrantRow>(
    `${GRANT_VIEW} WHERE g.team_id = $2 ORDER BY m.sort_order, m.name, m.id LIMIT $3 OFFSET $4`,
    [periodStart, teamId, paging.limit, paging.offset],
  );
  const count = await db.query<{ total: number }>(
    'SELECT count(*)::int AS total FROM team_model_grants WHERE team_id = $1',
    [teamId],
  );
  return { rows, total: count.rows[0]?.total ?? 0 };
}

export async function findGrant(
  db: Db,
  teamId: string,
  modelId: string,
  periodStart: string,
): Promise<GrantRow | undefined> {
  const { rows } = await db.query<GrantRow>(`${GRANT_VIEW} WHERE g.team_id = $2 AND g.model_id = $3`, [
    periodStart,
    teamId,
    modelId,
  ]);
  return rows[0];
}

export async function modelExists(db: Db, modelId: string): Promise<boolean> {
  // FOR KEY SHARE: a model deleted concurrently waits for the grant instead of breaking its foreign key.
  const { rows } = await db.query('SELECT 1 FROM models WHERE id = $1 FOR KEY SHARE', [modelId]);
  return rows.length > 0;
}

/** Inserts a grant; false when the team already has one for the model (the primary key decides, also under races). */
export async function insertGrant(
  db: PoolClient,
  teamId: string,
  modelId: string,
  values: GrantValues,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO team_model_grants (team_id, model_id, is_enabled, token_quota, request_quota)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (team_id, model_id) DO NOTHING`,
    [teamId, modelId, values.isEnabled, values.tokenQuota, values.requestQuota],
  );
  return rowCount === 1;
}

export interface GrantChange {
  isEnabled?: boolean;
  /** `null` = unlimited, `undefined` = unchanged. */
  tokenQuota?: number | null;
  requestQuota?: number | null;
}

/** Applies the given fields; false when there is no such grant. */
export async function updateGrant(
  db: Db,
  teamId: string,
  modelId: string,
  change: GrantChange,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE team_model_grants SET
       is_enabled = CASE WHEN $3 THEN $4 ELSE is_enabled END,
       token_quota = CASE WHEN $5 THEN $6::bigint ELSE token_quota END,
       request_quota = CASE WHEN $7 THEN $8::bigint ELSE request_quota END,
       updated_at = now()
     WHERE team_id = $1 AND model_id = $2 RETURNING id`,
    [
      teamId,
      modelId,
      change.isEnabled !== undefined,
      change.isEnabled ?? false,
      change.tokenQuota !== undefined,
      change.tokenQuota ?? null,
      change.requestQuota !== undefined,
      change.requestQuota ?? null,
    ],
  );
  return rows.length > 0;
}

/** Deletes a grant; its id, or undefined when there was none. */
export async function deleteGrant(db: Db, teamId: string, modelId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM team_model_grants WHERE team_id = $1 AND model_id = $2 RETURNING id',
    [teamId, modelId],
  );
  return rows[0]?.id;
}
