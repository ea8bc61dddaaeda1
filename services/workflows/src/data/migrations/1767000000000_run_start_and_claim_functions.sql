-- Up Migration
-- Issue 21: the fair claim and StartRun's write, each ONE call to Postgres.
--
-- claim_next_workflow_run (src/data/run-queue.ts): the database-wide claim lock, the fair pick,
-- the lease and the run's `run_started` event with its NOTIFY in a single statement. Before, a
-- claim was BEGIN, the lock, the pick, then a second transaction for the event: six
-- round trips, two of them while holding the lock every worker waits on. A VOLATILE plpgsql
-- function takes a fresh snapshot per statement, so the pick, made after the lock is granted,
-- sees every claim committed before it (as the separate statements did); the lock is released
-- when the calling statement's transaction commits.
-- The claim also drops the claimed run's own `workflow.run` task while still in the outbox: a run
-- claimed by the replica that started it then costs no Kafka message, relay pass or consumer work.
-- The task is only a prompt to claim; a run whose worker dies later gets a new task from the
-- reconciler.
-- The request that started a run (its X-Request-Id): the worker executes and logs the run, and
-- writes its fact and notification events, under that id, whichever request or message prompted
-- the claim.
ALTER TABLE workflow_runs ADD COLUMN request_id text;

CREATE FUNCTION claim_next_workflow_run(p_owner text, p_lease_ms integer, p_per_user integer, p_per_team integer)
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


-- start_workflow_run (src/domain/runs/start-run.ts): the starter's and the team's StartRun locks,
-- the count of their unfinished runs against the limits (issue 20), the run row and, unless the
-- run is claimed in this same call, its `workflow.run` task in the outbox (with the relay's
-- NOTIFY). Before, it was BEGIN, the locks, the count, the insert, the outbox row and COMMIT: six
-- round trips with the user's lock held across them. A VOLATILE plpgsql function takes a fresh
-- snapshot per statement, so the count, made after the locks are granted, sees every start
-- committed before (exactly the limit is accepted in a burst, on any replica); the locks are
-- released when the calling statement's transaction commits. A refusal raises SQLSTATE WFL01
-- (the user's limit) or WFL02 (the team's), nothing written.
-- StartRun claims in its own statement (issue 21): when the starting replica's worker has a free
-- slot (`p_claim`: its lease owner, lease and running caps), start_workflow_run ends with the fair
-- claim (claim_next_workflow_run, which takes the claim lock after the StartRun locks; nothing
-- takes them the other way round). It answers the started row, then the claimed row when one was
-- claimed. The fair pick decides: that is the new run unless another one is fairer. A new run
-- claimed here gets no `workflow.run` task at all: one Kafka message, relay pass and consumer
-- hand-off less per run; the task stays for a run left queued.
CREATE FUNCTION start_workflow_run(p_run jsonb, p_definition json, p_max_user integer,
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


-- Down Migration
DROP FUNCTION start_workflow_run(jsonb, json, integer, integer, jsonb, jsonb);
DROP FUNCTION claim_next_workflow_run(text, integer, integer, integer);
ALTER TABLE workflow_runs DROP COLUMN request_id;
