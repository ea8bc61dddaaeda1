-- Up Migration
-- gen_random_uuid() and digest() for key identifiers and hashes.
CREATE EXTENSION IF NOT EXISTS pgcrypto;

-- Down Migration
SELECT 1;
