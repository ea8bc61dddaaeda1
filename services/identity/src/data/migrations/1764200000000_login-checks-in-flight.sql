-- Up Migration
-- The login budget keeps two counts (issue 20): `failed_login_attempts` counts wrong passwords
-- only, `login_checks_in_flight` the attempts whose password is being checked right now.
-- `login_checks_since` is when the latest of them took its place: a count older than a minute
-- (a process that died mid-check) is read as zero, so a lost place never blocks an account.
ALTER TABLE users
  ADD COLUMN login_checks_in_flight integer NOT NULL DEFAULT 0,
  ADD COLUMN login_checks_since timestamptz;

-- Down Migration
ALTER TABLE users DROP COLUMN login_checks_in_flight, DROP COLUMN login_checks_since;
