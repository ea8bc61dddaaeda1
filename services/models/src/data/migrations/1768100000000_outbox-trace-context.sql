-- Up Migration
-- @include @platform/outbox/sql/outbox-trace-context.sql

-- Down Migration
ALTER TABLE outbox DROP COLUMN trace_context;
