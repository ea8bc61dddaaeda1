-- Up Migration
-- Statement statistics are created by the operator (superuser); see docs/operations.md.
SELECT 1;

-- Down Migration
SELECT 1;
