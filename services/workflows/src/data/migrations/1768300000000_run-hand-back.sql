-- Up Migration
-- Issue 23: a run worker that stops (SIGTERM, a rollout) hands its runs back at once instead of
-- leaving their leases to expire (15-20 s of a stalled run per rollout).
--
-- hand_back_workflow_run (src/data/run-journal.ts `handBack`): fenced on the caller's lease like
-- every journal write; marks the run handed over ('handover': the fair claim takes it first, before
-- any queued run, and the reconciler leaves it alone until the lease time has passed again, after
-- which it re-enqueues a task if still no worker took it) and NOTIFYs `workflow_run_handback` so
-- every other worker with a free slot claims at once instead of at its next poll. The run's
-- journal stays as it is: finished nodes are never run again; a node the worker cut (still
-- `running`) is started again by the next worker, its `attempts` then 2.
CREATE FUNCTION hand_back_workflow_run(p_run uuid, p_owner text, p_lease_ms integer)
RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  UPDATE workflow_runs
     SET lease_owner = 'handover', lease_expires_at = now() + p_lease_ms * interval '1 millisecond'
   WHERE id = p_run AND lease_owner = p_owner AND status = 'running';
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  PERFORM pg_notify('workflow_run_handback', p_run::text);
  RETURN true;
END
$$;


-- Down Migration
DROP FUNCTION hand_back_workflow_run(uuid, text, integer);
