-- Up Migration
-- Team model grants (docs/models.md "Grants and quotas"): which team may use which model, with
-- optional per-period token and request quotas (NULL = unlimited). Teams live in identity, so
-- team_id has no foreign key; revoking deletes the row, deleting a model deletes its grants.
CREATE TABLE team_model_grants (
  id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  team_id uuid NOT NULL,
  model_id uuid NOT NULL REFERENCES models (id) ON DELETE CASCADE,
  is_enabled boolean NOT NULL DEFAULT true,
  token_quota bigint CHECK (token_quota >= 1),
  request_quota bigint CHECK (request_quota >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, model_id)
);
CREATE INDEX team_model_grants_model ON team_model_grants (model_id);

-- Usage counters, one row per team, model and period (the calendar month in the server's timezone,
-- keyed by its first day). Counters outlive grants and models: a revoke and re-grant within a
-- period does not reset what was used, and observability reads past periods.
CREATE TABLE model_usage_counters (
  team_id uuid NOT NULL,
  model_id uuid NOT NULL,
  period_start date NOT NULL,
  tokens bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0),
  requests bigint NOT NULL DEFAULT 0 CHECK (requests >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, model_id, period_start)
);
CREATE INDEX model_usage_counters_period ON model_usage_counters (period_start, team_id, model_id);

-- One row per recorded idempotency key: a repeated RecordModelUsage counts once. Pruned after
-- USAGE_KEY_RETENTION_DAYS.
CREATE TABLE model_usage_records (
  idempotency_key text PRIMARY KEY,
  team_id uuid NOT NULL,
  model_id uuid NOT NULL,
  period_start date NOT NULL,
  tokens bigint NOT NULL,
  requests bigint NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_usage_records_recorded_at ON model_usage_records (recorded_at);

-- Transactional outbox (@platform/outbox): team.model_granted / team.model_revoked are written
-- here in the grant's transaction and published to Kafka by the OutboxRelay.
-- @include @platform/outbox/sql/outbox-table.sql

-- Down Migration
DROP TABLE IF EXISTS outbox;
DROP TABLE model_usage_records, model_usage_counters, team_model_grants;
