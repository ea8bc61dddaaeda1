-- Up Migration
-- Transactional outbox (@platform/outbox): expiry notices are written here in the same transaction
-- as their once-only claim in api_key_expiry_notices, and published to Kafka by the OutboxRelay.
-- @include @platform/outbox/sql/outbox-table.sql

-- Who created, changed, activated, deactivated or deleted a key, when and from where. Written in
-- the change's transaction; never the secret or its hash. No foreign key: the trail outlives the
-- key it describes.
CREATE TABLE api_key_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key_id uuid NOT NULL,
  key_prefix varchar(32) NOT NULL,
  key_owner_id uuid NOT NULL,
  action varchar(32) NOT NULL CHECK (
    action IN ('api_key.create', 'api_key.update', 'api_key.activate', 'api_key.deactivate', 'api_key.delete')
  ),
  actor_user_id uuid NOT NULL,
  ip text,
  user_agent text,
  request_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_key_audit_key_idx ON api_key_audit (key_id, created_at DESC);
CREATE INDEX api_key_audit_created_idx ON api_key_audit (created_at DESC);

-- Down Migration
DROP TABLE api_key_audit;
DROP TABLE outbox;
