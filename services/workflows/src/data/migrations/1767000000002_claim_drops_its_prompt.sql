-- Up Migration
-- The claim (1767000000000) also drops the claimed run's own `workflow.run` task from the outbox
-- when the relay has not published it yet (issue 21): a run claimed by the replica that started
-- it (run-executor.ts `prompt`) then costs no Kafka message, relay pass or consumer work. The task
-- is only a prompt to claim; a run whose worker dies later gets a new task from the reconciler.
CREATE OR REPLACE FUNCTION claim_next_workflow_run(p_owner text, p_lease_ms integer, p_per_user integer, p_per_team integer)
RETURNS SETOF workflow_runs LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  claimed workflow_runs;
BEGIN
  PERFORM pg_advisory_xact_lock(20001, 0);
  WITH running AS (SELECT user_id, workflow_team_id FROM workflow_runs WHERE status = 'running'),
       by_user AS (SELECT user_id, count(*) AS n FROM running GROUP BY user_id),
       by_team AS (SELECT workflow_team_id, count(*) AS n FROM running
                    WHERE workflow_team_id IS NOT NULL GROUP BY workflow_team_id),
       candidate AS (
         SELECT r.id FROM workflow_runs r
           LEFT JOIN by_user u ON u.user_id = r.user_id
           LEFT JOIN by_team t ON t.workflow_team_id = r.workflow_team_id
          WHERE (r.status = 'running' AND (r.lease_owner = 'handover' OR r.lease_expires_at < now()))
             OR (r.status = 'queued' AND coalesce(u.n, 0) < p_per_user AND coalesce(t.n, 0) < p_per_team)
          ORDER BY (r.status = 'running') DESC, coalesce(u.n, 0), coalesce(t.n, 0), r.created_at, r.id
          LIMIT 1)
  UPDATE workflow_runs w
     SET status = 'running', lease_owner = p_owner,
         lease_expires_at = now() + p_lease_ms * interval '1 millisecond',
         attempts = w.attempts + 1, started_at = coalesce(w.started_at, now()),
         last_event_seq = w.last_event_seq + 1
    FROM candidate
   WHERE w.id = candidate.id
     AND (w.status = 'queued'
          OR (w.status = 'running' AND (w.lease_expires_at < now() OR w.lease_owner = 'handover')))
  RETURNING w.* INTO claimed;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO workflow_run_events (run_id, seq, type, data)
  VALUES (claimed.id, claimed.last_event_seq, 'run_started',
          jsonb_build_object('run_id', claimed.id, 'workflow_id', claimed.workflow_id,
                             'version', claimed.version, 'mode', claimed.mode,
                             'attempt', claimed.attempts, 'worker', p_owner));
  PERFORM pg_notify('workflow_run_events', claimed.id || ':' || claimed.last_event_seq);
  -- The run's own `workflow.run` task, while still in the outbox, has nothing left to prompt: it is
  -- dropped, so neither Kafka nor a worker handles it. SKIP LOCKED: a row the relay is publishing
  -- right now is left to it (the worker that gets it finds the run taken); the claim never waits.
  DELETE FROM outbox WHERE seq IN (
    SELECT seq FROM outbox
     WHERE event_id = claimed.id || ':' || (claimed.attempts - 1) AND type = 'workflow.run'
     FOR UPDATE SKIP LOCKED);
  RETURN NEXT claimed;
END
$$;


-- Down Migration
CREATE OR REPLACE FUNCTION claim_next_workflow_run(p_owner text, p_lease_ms integer, p_per_user integer, p_per_team integer)
RETURNS SETOF workflow_runs LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  claimed workflow_runs;
BEGIN
  PERFORM pg_advisory_xact_lock(20001, 0);
  WITH running AS (SELECT user_id, workflow_team_id FROM workflow_runs WHERE status = 'running'),
       by_user AS (SELECT user_id, count(*) AS n FROM running GROUP BY user_id),
       by_team AS (SELECT workflow_team_id, count(*) AS n FROM running
                    WHERE workflow_team_id IS NOT NULL GROUP BY workflow_team_id),
       candidate AS (
         SELECT r.id FROM workflow_runs r
           LEFT JOIN by_user u ON u.user_id = r.user_id
           LEFT JOIN by_team t ON t.workflow_team_id = r.workflow_team_id
          WHERE (r.status = 'running' AND (r.lease_owner = 'handover' OR r.lease_expires_at < now()))
             OR (r.status = 'queued' AND coalesce(u.n, 0) < p_per_user AND coalesce(t.n, 0) < p_per_team)
          ORDER BY (r.status = 'running') DESC, coalesce(u.n, 0), coalesce(t.n, 0), r.created_at, r.id
          LIMIT 1)
  UPDATE workflow_runs w
     SET status = 'running', lease_owner = p_owner,
         lease_expires_at = now() + p_lease_ms * interval '1 millisecond',
         attempts = w.attempts + 1, started_at = coalesce(w.started_at, now()),
         last_event_seq = w.last_event_seq + 1
    FROM candidate
   WHERE w.id = candidate.id
     AND (w.status = 'queued'
          OR (w.status = 'running' AND (w.lease_expires_at < now() OR w.lease_owner = 'handover')))
  RETURNING w.* INTO claimed;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO workflow_run_events (run_id, seq, type, data)
  VALUES (claimed.id, claimed.last_event_seq, 'run_started',
          jsonb_build_object('run_id', claimed.id, 'workflow_id', claimed.workflow_id,
                             'version', claimed.version, 'mode', claimed.mode,
                             'attempt', claimed.attempts, 'worker', p_owner));
  PERFORM pg_notify('workflow_run_events', claimed.id || ':' || claimed.last_event_seq);
  RETURN NEXT claimed;
END
$$;

