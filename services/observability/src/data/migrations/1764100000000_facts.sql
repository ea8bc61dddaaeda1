-- Up Migration
-- Raw facts, one row per agent round / workflow run; the primary key is the idempotency key.
-- Durations are stored as integer milliseconds (rounded at ingest): the histograms below are then
-- lossless and the percentiles they give equal percentile_cont over these columns.
CREATE TABLE agent_rounds (
  id text PRIMARY KEY,
  agent_id text NOT NULL,
  user_id text NOT NULL DEFAULT '',
  team_id text NOT NULL DEFAULT '',
  round_status text NOT NULL,
  duration_ms integer NOT NULL,
  -- NULL: the round reported no first token (0 or absent).
  first_token_ms integer,
  prompt_tokens bigint NOT NULL DEFAULT 0,
  completion_tokens bigint NOT NULL DEFAULT 0,
  model text NOT NULL DEFAULT '',
  started_at timestamptz,
  -- The fact time every range filter uses.
  finished_at timestamptz NOT NULL
);
CREATE INDEX agent_rounds_finished_at ON agent_rounds (finished_at);
-- /timeouts (agent part): error rounds by time.
CREATE INDEX agent_rounds_errors ON agent_rounds (finished_at) WHERE round_status = 'error';

CREATE TABLE workflow_runs (
  id text PRIMARY KEY,
  workflow_id text NOT NULL,
  user_id text NOT NULL DEFAULT '',
  team_id text NOT NULL DEFAULT '',
  -- `running` until a final fact (success, failed, timeout, ...) replaces it; only final runs count.
  status text NOT NULL,
  total_duration_ms integer NOT NULL,
  total_tokens bigint NOT NULL DEFAULT 0,
  failed_nodes integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  -- Fact time: finished_at of a final run, started_at while running.
  finished_at timestamptz NOT NULL
);
CREATE INDEX workflow_runs_finished_at ON workflow_runs (finished_at);
CREATE INDEX workflow_runs_timeouts ON workflow_runs (finished_at) WHERE status = 'timeout';
CREATE INDEX workflow_runs_running ON workflow_runs (finished_at) WHERE status = 'running';

-- Hourly rollups, written in the same transaction as the facts they count (only for newly
-- inserted facts, so a redelivery never counts twice). source: 1 agent, 2 workflow.
CREATE TABLE hourly_counts (
  source smallint NOT NULL,
  entity_id text NOT NULL,
  hour timestamptz NOT NULL,
  requests bigint NOT NULL,
  successes bigint NOT NULL,
  -- agent: round_status error; workflow: status timeout (the spec's timeout_rate numerator).
  timeouts bigint NOT NULL,
  tokens bigint NOT NULL,
  failed_nodes bigint NOT NULL,
  PRIMARY KEY (hour, source, entity_id)
);
CREATE INDEX hourly_counts_entity ON hourly_counts (source, entity_id, hour);

-- Lossless duration histograms: how many facts had exactly `ms` milliseconds in that hour.
-- entity_id '' holds the total over every agent / workflow (the overview reads only those rows).
-- metric: 1 latency (agent duration_ms, workflow total_duration_ms), 2 ttft (agent first_token_ms).
CREATE TABLE duration_histogram (
  source smallint NOT NULL,
  metric smallint NOT NULL,
  entity_id text NOT NULL,
  hour timestamptz NOT NULL,
  ms integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (source, metric, entity_id, hour, ms) INCLUDE (n)
);

-- The same histograms by day (UTC), for the whole days of a range; the edges come from hours.
CREATE TABLE daily_duration_histogram (
  source smallint NOT NULL,
  metric smallint NOT NULL,
  entity_id text NOT NULL,
  day date NOT NULL,
  ms integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (source, metric, entity_id, day, ms) INCLUDE (n)
);

CREATE TABLE hourly_model_tokens (
  source smallint NOT NULL,
  model text NOT NULL,
  hour timestamptz NOT NULL,
  tokens bigint NOT NULL,
  requests bigint NOT NULL,
  PRIMARY KEY (hour, source, model)
);

CREATE TABLE hourly_node_types (
  workflow_id text NOT NULL,
  node_type text NOT NULL,
  hour timestamptz NOT NULL,
  executions bigint NOT NULL,
  failed bigint NOT NULL,
  duration_sum_ms double precision NOT NULL,
  PRIMARY KEY (workflow_id, hour, node_type)
);

-- Agent names from `platform.agent-directory` (latest entry per agent wins).
CREATE TABLE agent_directory (
  id uuid PRIMARY KEY,
  name text,
  icon text,
  updated_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE agent_directory;
DROP TABLE hourly_node_types;
DROP TABLE hourly_model_tokens;
DROP TABLE daily_duration_histogram;
DROP TABLE duration_histogram;
DROP TABLE hourly_counts;
DROP TABLE workflow_runs;
DROP TABLE agent_rounds;
