-- Up Migration
-- Claims of the password expiry notices (tasks.check_password_expiration): one row per user,
-- password and notice, inserted in the same transaction as the notice's outbox row, so a rerun or
-- a second replica sends nothing new. `password_version` identifies the password: the epoch
-- microseconds of when it was set (password_changed_at, else created_at); a new password starts a
-- new set of notices, and the rows of replaced passwords are deleted by the next check.
CREATE TABLE password_expiry_notices (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  password_version bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('expiring', 'expired')),
  days_remaining integer NOT NULL,
  sent_on date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, password_version, kind, days_remaining)
);

-- Down Migration
DROP TABLE password_expiry_notices;
