import type { Pool, PoolClient } from '@platform/db';
import type { RunRow } from './runs-repository.js';

/**
 * Advisory-lock classes (the two-key form, so they never meet another feature's keys): one lock
 * for every claim in the database (taken inside `claim_next_workflow_run`), one per user and one
 * per team for StartRun's count-then-insert.
 */
export const CLAIM_LOCK = 20_001;
const USER_START_LOCK = 20_002;
const TEAM_START_LOCK = 20_003;

export interface RunningCaps {
  perUser: number;
  perTeam: number;
}

/**
 * Claims the next run fairly for `owner`, or null when none may start now. The fair pick: a run
 * handed over after its worker died comes first (it already counts as running); then a queued run
 * whose user and team (the workflow's team; a personal workflow has none) are under their running
 * caps, the user with the fewest runs executing first, then the team with the fewest, then the
 * oldest. So one user's thousand queued runs never stand in front of another user's first one,
 * whatever the Kafka order was.
 *
 * One round trip: the function `claim_next_workflow_run` (migration 1767000000000) takes the
 * database-wide claim lock (`CLAIM_LOCK`), so two workers (any replica) never both take a user's
 * last free running place, picks, leases, and appends the run's `run_started` event (and NOTIFY),
 * all in the one statement's transaction; the lock is held for that statement only.
 */
export async function claimNextRun(
  pool: Pool,
  owner: string,
  leaseMs: number,
  caps: RunningCaps,
): Promise<RunRow | null> {
  const { rows } = await pool.query<RunRow>('SELECT * FROM claim_next_workflow_run($1, $2, $3, $4)', [
    owner,
    leaseMs,
    caps.perUser,
    caps.perTeam,
  ]);
  return rows[0] ?? null;
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
  // Both locks in one statement: its select list is evaluated in order, user first.
  if (teamId)
    await client.query(
      'SELECT pg_advisory_xact_lock($1, hashtext($2)), pg_advisory_xact_lock($3, hashtext($4))',
      [USER_START_LOCK, userId, TEAM_START_LOCK, teamId],
    );
  else await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [USER_START_LOCK, userId]);
  const { rows } = await client.query<{ user: string; team: string }>(
    `SELECT (SELECT count(*) FROM workflow_runs WHERE user_id = $1 AND status IN ('queued', 'running')) AS user,
            (SELECT count(*) FROM workflow_runs
              WHERE workflow_team_id = $2 AND status IN ('queued', 'running')) AS team`,
    [userId, teamId],
  );
  return { user: Number(rows[0]!.user), team: Number(rows[0]!.team) };
}
