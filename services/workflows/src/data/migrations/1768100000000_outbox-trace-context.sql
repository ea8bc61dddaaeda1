-- Up Migration
-- Issue 22: the W3C `traceparent` of the span that wrote an outbox row (null outside a trace). The
-- relay publishes the row under a producer span parented by it, so one trace runs from the request
-- through the outbox into the consumer (docs/operations.md "Traces"). start_workflow_run writes the
-- run's `workflow.run` task with the starter's trace context (`p_task.trace_context`); otherwise
-- unchanged from migration 1767000000000.
-- @include @platform/outbox/sql/outbox-trace-context.sql

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


-- Down Migration
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
    INSERT INTO outbox (topic, key, type, event_id, value, request_id)
    VALUES (p_task->>'topic', p_task->>'key', p_task->>'type', p_task->>'id', p_task->'value',
            p_task->>'request_id');
    PERFORM pg_notify('outbox', '');
  END IF;
END
$$;

ALTER TABLE outbox DROP COLUMN trace_context;
