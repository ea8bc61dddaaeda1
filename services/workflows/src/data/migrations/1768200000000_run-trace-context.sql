-- Up Migration
-- Issue 22: the W3C `traceparent` of the StartRun call that created the run (null outside a trace
-- or for older runs). The worker executes the run under a `workflow.run` span parented by it, on
-- whichever replica claims the run and however late (after a Kafka hop, a DB claim or a resume),
-- so one trace runs from the gateway's request through the run's nodes (docs/operations.md
-- "Traces"). start_workflow_run stores `p_run.trace_context`; otherwise it is migration
-- 1768100000000's.
ALTER TABLE workflow_runs ADD COLUMN trace_context text;
-- Migration 1768100000000 adds it; IF NOT EXISTS keeps this one whole on its own.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS trace_context text;
-- `workflow_runs_queued` / `workflow_oldest_queued_run_age_seconds` (src/events/run-metrics.ts):
-- the count and the oldest of the queued runs from this index alone, whatever the table's size.
CREATE INDEX workflow_runs_queued_idx ON workflow_runs (created_at) WHERE status = 'queued';

CREATE OR REPLACE FUNCTION start_workflow_run(p_run jsonb, p_definition json, p_max_user integer,
                                   p_max_team integer, p_task jsonb, p_claim jsonb)
RETURNS SETOF workflow_runs LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_user uuid := (p_run->>'user_id')::uuid;
  v_team uuid := (p_run->>'workflow_team_id')::uuid;
  started workflow_runs;
  claimed workflow_runs;
BEGIN
  -- Always the user's lock first, so two starts never wait on each other in a cycle.
  PERFORM pg_advisory_xact_lock(20002, hashtext(p_run->>'user_id'));
  IF v_team IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(20003, hashtext(p_run->>'workflow_team_id'));
  END IF;
  IF (SELECT count(*) FROM workflow_runs
       WHERE user_id = v_user AND status IN ('queued', 'running')) >= p_max_user THEN
    RAISE EXCEPTION 'unfinished runs of the user at the limit' USING ERRCODE = 'WFL01';
  END IF;
  IF v_team IS NOT NULL AND (SELECT count(*) FROM workflow_runs
       WHERE workflow_team_id = v_team AND status IN ('queued', 'running')) >= p_max_team THEN
    RAISE EXCEPTION 'unfinished runs of the team at the limit' USING ERRCODE = 'WFL02';
  END IF;
  INSERT INTO workflow_runs (id, workflow_id, owner_id, team_id, mode, version, definition, inputs,
                             trigger_type, trigger_id, user_id, timeout_seconds, workflow_team_id,
                             request_id, trace_context)
  VALUES ((p_run->>'id')::uuid, (p_run->>'workflow_id')::uuid, (p_run->>'owner_id')::uuid,
          (p_run->>'team_id')::uuid, p_run->>'mode', (p_run->>'version')::integer, p_definition,
          p_run->'inputs', p_run->>'trigger_type', (p_run->>'trigger_id')::uuid, v_user,
          (p_run->>'timeout_seconds')::integer, v_team, p_run->>'request_id', p_run->>'trace_context')
  RETURNING * INTO started;
  RETURN NEXT started;
  -- The starting replica's worker has a free slot: the fair claim, in this same statement.
  IF p_claim IS NOT NULL THEN
    SELECT * INTO claimed FROM claim_next_workflow_run(p_claim->>'owner', (p_claim->>'lease_ms')::integer,
                                                       (p_claim->>'per_user')::integer,
                                                       (p_claim->>'per_team')::integer);
    IF FOUND THEN
      RETURN NEXT claimed;
    END IF;
  END IF;
  -- A run claimed here needs no prompt: no task, no Kafka message (a worker that dies later
  -- leaves its run to the reconciler, which enqueues a new task).
  IF claimed.id IS DISTINCT FROM started.id THEN
    INSERT INTO outbox (topic, key, type, event_id, value, request_id, trace_context)
    VALUES (p_task->>'topic', p_task->>'key', p_task->>'type', p_task->>'id', p_task->'value',
            p_task->>'request_id', p_task->>'trace_context');
    PERFORM pg_notify('outbox', '');
  END IF;
END
$$;


-- Down Migration
DROP INDEX workflow_runs_queued_idx;
CREATE OR REPLACE FUNCTION start_workflow_run(p_run jsonb, p_definition json, p_max_user integer,
                                   p_max_team integer, p_task jsonb, p_claim jsonb)
RETURNS SETOF workflow_runs LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_user uuid := (p_run->>'user_id')::uuid;
  v_team uuid := (p_run->>'workflow_team_id')::uuid;
  started workflow_runs;
  claimed workflow_runs;
BEGIN
  -- Always the user's lock first, so two starts never wait on each other in a cycle.
  PERFORM pg_advisory_xact_lock(20002, hashtext(p_run->>'user_id'));
  IF v_team IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(20003, hashtext(p_run->>'workflow_team_id'));
  END IF;
  IF (SELECT count(*) FROM workflow_runs
       WHERE user_id = v_user AND status IN ('queued', 'running')) >= p_max_user THEN
    RAISE EXCEPTION 'unfinished runs of the user at the limit' USING ERRCODE = 'WFL01';
  END IF;
  IF v_team IS NOT NULL AND (SELECT count(*) FROM workflow_runs
       WHERE workflow_team_id = v_team AND status IN ('queued', 'running')) >= p_max_team THEN
    RAISE EXCEPTION 'unfinished runs of the team at the limit' USING ERRCODE = 'WFL02';
  END IF;
  INSERT INTO workflow_runs (id, workflow_id, owner_id, team_id, mode, version, definition, inputs,
                             trigger_type, trigger_id, user_id, timeout_seconds, workflow_team_id,
                             request_id)
  VALUES ((p_run->>'id')::uuid, (p_run->>'workflow_id')::uuid, (p_run->>'owner_id')::uuid,
          (p_run->>'team_id')::uuid, p_run->>'mode', (p_run->>'version')::integer, p_definition,
          p_run->'inputs', p_run->>'trigger_type', (p_run->>'trigger_id')::uuid, v_user,
          (p_run->>'timeout_seconds')::integer, v_team, p_run->>'request_id')
  RETURNING * INTO started;
  RETURN NEXT started;
  -- The starting replica's worker has a free slot: the fair claim, in this same statement.
  IF p_claim IS NOT NULL THEN
    SELECT * INTO claimed FROM claim_next_workflow_run(p_claim->>'owner', (p_claim->>'lease_ms')::integer,
                                                       (p_claim->>'per_user')::integer,
                                                       (p_claim->>'per_team')::integer);
    IF FOUND THEN
      RETURN NEXT claimed;
    END IF;
  END IF;
  -- A run claimed here needs no prompt: no task, no Kafka message (a worker that dies later
  -- leaves its run to the reconciler, which enqueues a new task).
  IF claimed.id IS DISTINCT FROM started.id THEN
    INSERT INTO outbox (topic, key, type, event_id, value, request_id, trace_context)
    VALUES (p_task->>'topic', p_task->>'key', p_task->>'type', p_task->>'id', p_task->'value',
            p_task->>'request_id', p_task->>'trace_context');
    PERFORM pg_notify('outbox', '');
  END IF;
END
$$;

ALTER TABLE workflow_runs DROP COLUMN trace_context;
