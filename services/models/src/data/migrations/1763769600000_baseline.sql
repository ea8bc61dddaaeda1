-- Up Migration
CREATE EXTENSION IF NOT EXISTS pgcrypto;

-- Down Migration
SELECT 1;
