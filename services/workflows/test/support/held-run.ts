import type { Pool } from '@platform/db';

/**
 * A run row held by a fake worker `test-writer` (lease for an hour), started by `userId`: it never
 * finishes on its own, so a stream on it stays open, and a test appends its events itself.
 */
export async function insertHeldRun(pool: Pool, workflowId: string, userId: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO workflow_runs (workflow_id, owner_id, team_id, mode, version, definition, trigger_type,
                                trigger_id, user_id, timeout_seconds, status, lease_owner, lease_expires_at, started_at)
     VALUES ($1, $2, gen_random_uuid(), 'production', 1, '{}', 'user', $2, $2, 300, 'running', 'test-writer',
             now() + interval '1 hour', now())
     RETURNING id`,
    [workflowId, userId],
  );
  return rows[0]!.id;
}
