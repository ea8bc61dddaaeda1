import { withTransaction, type Pool, type PoolClient } from '@platform/db';
import { HANDOVER, type RunRow } from './runs-repository.js';

/**
 * Advisory-lock classes (the two-key form, so they never meet another feature's keys): one lock
 * for every claim in the database, one per user and one per team for StartRun's count-then-insert.
 */
const CLAIM_LOCK = 20_001;
const USER_START_LOCK = 20_002;
const TEAM_START_LOCK = 20_003;

export interface RunningCaps {
  perUser: number;
  perTeam: number;
}

/**
 * The fair pick: a run handed over after its worker died comes first (it already counts as running);
 * then a queued run whose user and team (the workflow's team; a personal workflow has none) are
 * under their running caps, the user with the fewest
 * runs executing first, then the team with the fewest, then the oldest. So one user's thousand
 * queued runs never stand in front of another user's first one, whatever the Kafka order was.
 */
const CLAIM_NEXT_SQL = `
WITH running AS (SELECT user_id, workflow_team_id FROM workflow_runs WHERE status = 'running'),
     by_user AS (SELECT user_id, count(*) AS n FROM running GROUP BY user_id),
     by_team AS (SELECT workflow_team_id, count(*) AS n FROM running
                  WHERE workflow_team_id IS NOT NULL GROUP BY workflow_team_id),
     candidate AS (
       SELECT r.id FROM workflow_runs r
         LEFT JOIN by_user u ON u.user_id = r.user_id
         LEFT JOIN by_team t ON t.workflow_team_id = r.workflow_team_id
        WHERE (r.status = 'running' AND (r.lease_owner = '${HANDOVER}' OR r.lease_expires_at < now()))
           OR (r.status = 'queued' AND coalesce(u.n, 0) < $3 AND coalesce(t.n, 0) < $4)
        ORDER BY (r.status = 'running') DESC, coalesce(u.n, 0), coalesce(t.n, 0), r.created_at, r.id
        LIMIT 1)
UPDATE workflow_runs w
   SET status = 'running', lease_owner = $1, lease_expires_at = now() + $2 * interval '1 millisecond',
       attempts = w.attempts + 1, started_at = coalesce(w.started_at, now())
  FROM candidate
 WHERE w.id = candidate.id
   AND (w.status = 'queued' OR (w.status = 'running' AND (w.lease_expires_at < now() OR w.lease_owner = '${HANDOVER}')))
RETURNING w.*`;

/**
 * Claims the next run fairly for `owner`, or null when none may start now. The counts and the
 * claim happen under one database-wide advisory lock, so two workers (any replica) never both
 * take a user's last free running place; a claim holds it for one statement.
 */
export function claimNextRun(
  pool: Pool,
  owner: string,
  leaseMs: number,
  caps: RunningCaps,
): Promise<RunRow | null> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [CLAIM_LOCK]);
    const { rows } = await client.query<RunRow>(CLAIM_NEXT_SQL, [owner, leaseMs, caps.perUser, caps.perTeam]);
    return rows[0] ?? null;
  });
}

export interface UnfinishedCounts {
  user: number;
  /** 0 for a personal workflow's run: only the user's limit applies. */
  team: number;
}

/**
 * Counts the unfinished (queued or running) runs of a user and of a team inside the caller's
 * transaction, after taking that user's and that team's StartRun locks (always user first, so two
 * starts never wait on each other in a cycle). The locks last until the transaction ends: a burst
 * of starts is counted one after the other, so exactly the limit is accepted, on any replica.
 */
export async function lockAndCountUnfinished(
  client: PoolClient,
  userId: string,
  teamId: string | null,
): Promise<UnfinishedCounts> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [USER_START_LOCK, userId]);
  if (teamId) await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [TEAM_START_LOCK, teamId]);
  const { rows } = await client.query<{ user: string; team: string }>(
    `SELECT (SELECT count(*) FROM workflow_runs WHERE user_id = $1 AND status IN ('queued', 'running')) AS user,
            (SELECT count(*) FROM workflow_runs
              WHERE workflow_team_id = $2 AND status IN ('queued', 'running')) AS team`,
    [userId, teamId],
  );
  return { user: Number(rows[0]!.user), team: Number(rows[0]!.team) };
}
