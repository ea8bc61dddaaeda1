-- The transactional outbox of @platform/outbox, as first created (its later columns come in their
-- own migrations: outbox-trace-context.sql). Included by each service's migration that creates it
-- (`-- @include @platform/outbox/sql/outbox-table.sql`, @platform/db's runner); never edit a line:
-- migrations that ran it are applied already.
CREATE TABLE outbox (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic text NOT NULL,
  key text NOT NULL,
  type text NOT NULL,
  event_id text NOT NULL,
  value jsonb NOT NULL,
  request_id text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
