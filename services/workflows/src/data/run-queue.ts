import type { Pool } from '@platform/db';
import { requestContext } from '@platform/logger';
import { outboxTraceContext, type OutboxEvent } from '@platform/outbox';
import type { NewRun, RunRow } from './runs-repository.js';

/**
 * Advisory-lock classes (the two-key form, so they never meet another feature's keys): one lock
 * for every claim in the database (taken inside `claim_next_workflow_run`), one per user and one
 * per team for StartRun's count-then-insert.
 */
export const CLAIM_LOCK = 20_001;
export const USER_START_LOCK = 20_002;
export const TEAM_START_LOCK = 20_003;

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

/** A StartRun refused by `startCountedRun`: the starter's or the team's unfinished-run limit. */
export class UnfinishedLimitError extends Error {
  constructor(readonly scope: 'user' | 'team') {
    super(`unfinished runs of the ${scope} at the limit`);
    this.name = 'UnfinishedLimitError';
  }
}

export interface UnfinishedLimits {
  perUser: number;
  perTeam: number;
}

/** A claim StartRun makes in its own statement for a worker with a free slot (`claimNextRun`'s arguments). */
export interface ClaimRequest {
  owner: string;
  leaseMs: number;
  caps: RunningCaps;
}

/**
 * Writes a run and its `workflow.run` task in ONE call (`start_workflow_run`, migration
 * 1767000000000) after counting the starter's and the team's unfinished (queued or running) runs
 * under their StartRun locks (`USER_START_LOCK` then `TEAM_START_LOCK`): a burst of starts is
 * counted one after the other, so exactly the limit is accepted, on any replica; past either
 * limit nothing is written (`UnfinishedLimitError`). `run.id` is chosen by the caller, so the
 * task can name the run before it exists. With `claim` (migration 1767000000000) the same
 * statement then makes the fair claim for that worker (`claimed`: the new run or a fairer one); a
 * new run claimed so gets no task at all.
 */
export async function startCountedRun(
  pool: Pool,
  run: NewRun & { id: string },
  limits: UnfinishedLimits,
  task: OutboxEvent,
  claim?: ClaimRequest,
): Promise<{ started: RunRow; claimed: RunRow | null }> {
  const { definition, ...fields } = run;
  try {
    const { rows } = await pool.query<RunRow>(
      'SELECT * FROM start_workflow_run($1::jsonb, $2::json, $3, $4, $5::jsonb, $6::jsonb)',
      [
        JSON.stringify(fields),
        definition,
        limits.perUser,
        limits.perTeam,
        JSON.stringify({
          ...task,
          request_id: requestContext.current()?.requestId ?? null,
          trace_context: outboxTraceContext(),
        }),
        claim
          ? JSON.stringify({
              owner: claim.owner,
              lease_ms: claim.leaseMs,
              per_user: claim.caps.perUser,
              per_team: claim.caps.perTeam,
            })
          : null,
      ],
    );
    return { started: rows[0]!, claimed: rows[1] ?? null };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'WFL01') throw new UnfinishedLimitError('user');
    if (code === 'WFL02') throw new UnfinishedLimitError('team');
    throw error;
  }
}
