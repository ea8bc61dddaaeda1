-- Up Migration
-- Transactional outbox (@platform/outbox): events are written here first and published to Kafka
-- by the OutboxRelay, so nothing is lost while Kafka is unreachable.
-- @include @platform/outbox/sql/outbox-table.sql

-- Down Migration
DROP TABLE outbox;
