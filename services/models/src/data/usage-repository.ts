import type { Db } from './grants-repository.js';

export interface CounterRow {
  tokens: string;
  requests: string;
}

export interface UsageRecord {
  idempotencyKey: string;
  teamId: string;
  modelId: string;
  /** `YYYY-MM-01` of the period the usage counts toward. */
  periodStart: string;
  tokens: number;
  requests: number;
}

/**
 * Records one usage once: the idempotency row and the counter increment are one statement (one
 * transaction), and the increment is an `INSERT … ON CONFLICT DO UPDATE SET x = x + n`, so
 * concurrent callers queue on the counter row's lock and none of their additions is lost. A key
 * already recorded (also by a concurrent call still committing: the unique index waits for it)
 * adds nothing and answers undefined.
 */
export async function addUsageOnce(db: Db, record: UsageRecord): Promise<CounterRow | undefined> {
  const { rows } = await db.query<CounterRow>(
    `WITH recorded AS (
       INSERT INTO model_usage_records (idempotency_key, team_id, model_id, period_start, tokens, requests)
       VALUES ($1, $2, $3, $4::date, $5, $6)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING team_id, model_id, period_start, tokens, requests
     )
     INSERT INTO model_usage_counters AS c (team_id, model_id, period_start, tokens, requests)
     SELECT team_id, model_id, period_start, tokens, requests FROM recorded
     ON CONFLICT (team_id, model_id, period_start) DO UPDATE
       SET tokens = c.tokens + EXCLUDED.tokens, requests = c.requests + EXCLUDED.requests, updated_at = now()
     RETURNING c.tokens, c.requests`,
    [
      record.idempotencyKey,
      record.teamId,
      record.modelId,
      record.periodStart,
      record.tokens,
      record.requests,
    ],
  );
  return rows[0];
}

export interface RecordedKeyRow {
  team_id: string;
  model_id: string;
  period_start: string;
  tokens: string;
  requests: string;
}

/** What an idempotency key recorded, with its period's counters now. */
export async function findRecordedKey(
  db: Db,
  idempotencyKey: string,
): Promise<(RecordedKeyRow & { counter_tokens: string; counter_requests: string }) | undefined> {
  const { rows } = await db.query<RecordedKeyRow & { counter_tokens: string; counter_requests: string }>(
    `SELECT r.team_id, r.model_id, to_char(r.period_start, 'YYYY-MM-DD') AS period_start, r.tokens, r.requests,
            coalesce(c.tokens, 0) AS counter_tokens, coalesce(c.requests, 0) AS counter_requests
       FROM model_usage_records r
       LEFT JOIN model_usage_counters c
         ON c.team_id = r.team_id AND c.model_id = r.model_id AND c.period_start = r.period_start
      WHERE r.idempotency_key = $1`,
    [idempotencyKey],
  );
  return rows[0];
}

export interface AuthorizationRow {
  model_is_enabled: boolean;
  has_grant: boolean;
  grant_is_enabled: boolean | null;
  token_quota: string | null;
  request_quota: string | null;
  used_tokens: string;
  used_requests: string;
}

/** Everything AuthorizeModelUse decides on, in one indexed query; undefined for an unknown model. */
export async function readAuthorization(
  db: Db,
  teamId: string,
  modelId: string,
  periodStart: string,
): Promise<AuthorizationRow | undefined> {
  const { rows } = await db.query<AuthorizationRow>(
    `SELECT m.is_enabled AS model_is_enabled, g.team_id IS NOT NULL AS has_grant,
            g.is_enabled AS grant_is_enabled, g.token_quota, g.request_quota,
            coalesce(c.tokens, 0) AS used_tokens, coalesce(c.requests, 0) AS used_requests
       FROM models m
       LEFT JOIN team_model_grants g ON g.model_id = m.id AND g.team_id = $1
       LEFT JOIN model_usage_counters c ON c.team_id = $1 AND c.model_id = m.id AND c.period_start = $3::date
      WHERE m.id = $2`,
    [teamId, modelId, periodStart],
  );
  return rows[0];
}

export interface UsageRow {
  team_id: string;
  model_id: string;
  period_start: string;
  tokens: string;
  requests: string;
}

export interface UsageFilter {
  fromPeriod: string;
  toPeriod: string;
  teamId: string | null;
  modelId: string | null;
}

const USAGE_WHERE = `period_start BETWEEN $1::date AND $2::date
  AND ($3::uuid IS NULL OR team_id = $3) AND ($4::uuid IS NULL OR model_id = $4)`;

/** Counter rows of the periods from `fromPeriod` to `toPeriod` (both included), newest period first. */
export async function listUsage(
  db: Db,
  filter: UsageFilter,
  paging: { limit: number; offset: number },
): Promise<{ rows: UsageRow[]; total: number }> {
  const values = [filter.fromPeriod, filter.toPeriod, filter.teamId, filter.modelId];
  const { rows } = await db.query<UsageRow>(
    `SELECT team_id, model_id, to_char(period_start, 'YYYY-MM-DD') AS period_start, tokens, requests
       FROM model_usage_counters WHERE ${USAGE_WHERE}
      ORDER BY period_start DESC, team_id, model_id LIMIT $5 OFFSET $6`,
    [...values, paging.limit, paging.offset],
  );
  const count = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM model_usage_counters WHERE ${USAGE_WHERE}`,
    values,
  );
  return { rows, total: count.rows[0]?.total ?? 0 };
}

/** Sums per period (only periods with rows). */
export async function sumUsageByPeriod(
  db: Db,
  filter: UsageFilter,
): Promise<{ period_start: string; tokens: string; requests: string }[]> {
  const { rows } = await db.query<{ period_start: string; tokens: string; requests: string }>(
    `SELECT to_char(period_start, 'YYYY-MM-DD') AS period_start, sum(tokens)::bigint AS tokens,
            sum(requests)::bigint AS requests
       FROM model_usage_counters WHERE ${USAGE_WHERE}
      GROUP BY period_start ORDER BY period_start`,
    [filter.fromPeriod, filter.toPeriod, filter.teamId, filter.modelId],
  );
  return rows;
}

/** Forgets idempotency keys recorded before `before` (their counters stay). */
export async function pruneUsageRecords(db: Db, before: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM model_usage_records WHERE recorded_at < $1 RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before],
  );
  return rows[0]?.n ?? 0;
}
