-- Up Migration
-- Fairness between users (docs/security.md "Fairness between users: runs, streams and waits").
-- The workflow's team at start (null: a personal workflow): the team whose running and unfinished
-- limits the run counts against. Not `team_id`, which is the billing team and, for a personal
-- workflow, the site's default team that every user shares.
ALTER TABLE workflow_runs ADD COLUMN workflow_team_id uuid;
-- StartRun counts a user's and a team's unfinished runs under their lock; every claim counts the
-- running ones. Both stay small index scans however many finished runs there are.
CREATE INDEX workflow_runs_user_unfinished_idx ON workflow_runs (user_id)
  WHERE status IN ('queued', 'running');
CREATE INDEX workflow_runs_team_unfinished_idx ON workflow_runs (workflow_team_id)
  WHERE status IN ('queued', 'running') AND workflow_team_id IS NOT NULL;

-- Down Migration
DROP INDEX workflow_runs_team_unfinished_idx;
DROP INDEX workflow_runs_user_unfinished_idx;
ALTER TABLE workflow_runs DROP COLUMN workflow_team_id;
