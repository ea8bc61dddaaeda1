-- Up Migration
-- Transactional outbox (@platform/outbox): events are written here first and published to Kafka
-- by the OutboxRelay, so nothing is lost while Kafka is unreachable.
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

-- Down Migration
DROP TABLE outbox;
