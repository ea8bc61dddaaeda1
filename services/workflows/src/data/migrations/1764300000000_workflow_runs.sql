-- Up Migration
-- Workflow runs (docs/workflows.md "Runs"). A run pins what it executes at start: `definition` is a
-- copy of the snapshot (production) or the draft (debug) it was started from, so a later publish
-- or edit never changes a running or finished run.
CREATE TABLE workflow_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workflow_id uuid NOT NULL,
  -- The workflow's owner at start (facts, notification events), and the team model use is billed
  -- to: the workflow's team, else the site's default team (resolved at start).
  owner_id uuid NOT NULL,
  team_id uuid NOT NULL,
  mode varchar(20) NOT NULL CHECK (mode IN ('production', 'debug')),
  version integer NOT NULL,
  definition json NOT NULL,
  inputs jsonb NOT NULL DEFAULT '{}',
  outputs jsonb,
  -- {code, message, node_id?, data?}
  error jsonb,
  status varchar(20) NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'running', 'success', 'failed', 'timeout')),
  trigger_type varchar(20) NOT NULL CHECK (trigger_type IN ('user', 'api_key')),
  trigger_id uuid NOT NULL,
  -- The user who started it (the key's owner for an API key).
  user_id uuid NOT NULL,
  timeout_seconds integer NOT NULL,
  total_tokens bigint NOT NULL DEFAULT 0,
  -- Execution lease: the worker holding it (`lease_owner`) runs the run until `lease_expires_at`,
  -- renewing it as it goes; the reconciler hands runs with an expired lease to another worker.
  -- Every write of a worker is fenced on `lease_owner`, so a worker that lost its lease writes nothing.
  lease_owner text,
  lease_expires_at timestamptz,
  -- How many times a worker claimed it (1 on the first run; >1 = resumed after a lost lease).
  attempts integer NOT NULL DEFAULT 0,
  -- The last event's `seq` (events are numbered 1, 2, 3, … per run, no gaps).
  last_event_seq bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX workflow_runs_workflow_idx ON workflow_runs (workflow_id, created_at DESC, id DESC);
-- The reconciler's scan: unfinished runs by lease expiry.
CREATE INDEX workflow_runs_unfinished_idx ON workflow_runs (lease_expires_at)
  WHERE status IN ('queued', 'running');

-- One row per node of a run that started or was skipped, in execution order (`position`).
-- A row in `running` state at a crash is the node that was in flight: it is the only one retried.
CREATE TABLE workflow_node_executions (
  run_id uuid NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
  node_id varchar(200) NOT NULL,
  position integer NOT NULL,
  node_type varchar(100) NOT NULL,
  status varchar(20) NOT NULL CHECK (status IN ('running', 'success', 'failed', 'skipped', 'timeout')),
  -- The node's outputs (variables later nodes read) and, for a condition, the branch it took.
  outputs jsonb,
  branch text,
  error jsonb,
  tokens bigint NOT NULL DEFAULT 0,
  model text,
  -- How many times the node was started (>1 = retried after a crash; the side effect carries the
  -- same idempotency key `<run_id>:<node_id>` each time).
  attempts integer NOT NULL DEFAULT 1,
  started_at timestamptz,
  duration_ms bigint NOT NULL DEFAULT 0,
  finished_at timestamptz,
  PRIMARY KEY (run_id, node_id),
  UNIQUE (run_id, position)
);

-- The run's event log, streamed as SSE with `seq` as the event id; kept at least 24 hours after
-- the run ends (RUN_EVENTS_RETENTION_HOURS), then purged.
CREATE TABLE workflow_run_events (
  run_id uuid NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  type varchar(30) NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, seq)
);

-- The transactional outbox (@platform/outbox): `workflow.run` tasks, run facts and notification
-- events are written here in the transaction that changes the run, and published by the relay.
-- @include @platform/outbox/sql/outbox-table.sql

-- Down Migration
DROP TABLE outbox;
DROP TABLE workflow_run_events;
DROP TABLE workflow_node_executions;
DROP TABLE workflow_runs;
