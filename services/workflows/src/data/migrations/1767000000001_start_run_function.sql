-- Up Migration
-- StartRun's write as ONE call (issue 21): the starter's and the team's StartRun locks, the count
-- of their unfinished runs against the limits (issue 20), the run row and its `workflow.run` task
-- in the outbox (with the relay's NOTIFY). Before, it was BEGIN, the locks, the count, the insert,
-- the outbox row and COMMIT: six round trips with the user's lock held across them. A VOLATILE
-- plpgsql function takes a fresh snapshot per statement, so the count, made after the locks are
-- granted, sees every start committed before (exactly the limit is accepted in a burst, on any
-- replica); the locks are released when the calling statement's transaction commits.
-- A refusal raises SQLSTATE WFL01 (the user's limit) or WFL02 (the team's), nothing written.
CREATE FUNCTION start_workflow_run(p_run jsonb, p_definition json, p_max_user integer,
                                   p_max_team integer, p_task jsonb)
RETURNS SETOF workflow_runs LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_user uuid := (p_run->>'user_id')::uuid;
  v_team uuid := (p_run->>'workflow_team_id')::uuid;
  started workflow_runs;
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
                             trigger_type, trigger_id, user_id, timeout_seconds, workflow_team_id)
  VALUES ((p_run->>'id')::uuid, (p_run->>'workflow_id')::uuid, (p_run->>'owner_id')::uuid,
          (p_run->>'team_id')::uuid, p_run->>'mode', (p_run->>'version')::integer, p_definition,
          p_run->'inputs', p_run->>'trigger_type', (p_run->>'trigger_id')::uuid, v_user,
          (p_run->>'timeout_seconds')::integer, v_team)
  RETURNING * INTO started;
  INSERT INTO outbox (topic, key, type, event_id, value, request_id)
  VALUES (p_task->>'topic', p_task->>'key', p_task->>'type', p_task->>'id', p_task->'value',
          p_task->>'request_id');
  PERFORM pg_notify('outbox', '');
  RETURN NEXT started;
END
$$;

-- Down Migration
DROP FUNCTION start_workflow_run(jsonb, json, integer, integer, jsonb);
