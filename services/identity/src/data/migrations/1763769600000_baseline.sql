-- Up Migration
-- Case-insensitive usernames and emails.
CREATE EXTENSION IF NOT EXISTS citext;

-- Down Migration
SELECT 1;
