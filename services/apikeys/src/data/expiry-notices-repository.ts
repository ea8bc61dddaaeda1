import type { Pool } from '@platform/db';

export interface ExpiryCandidate {
  id: string;
  user_id: string;
  name: string;
  key_prefix: string;
  expires_at: Date;
}

/** Active keys that expire before `until` (already expired ones included). */
export async function findExpiryCandidates(pool: Pool, until: Date): Promise<ExpiryCandidate[]> {
  const { rows } = await pool.query<ExpiryCandidate>(
    `SELECT id, user_id, name, key_prefix, expires_at FROM api_keys
      WHERE is_active AND expires_at IS NOT NULL AND expires_at < $1 ORDER BY expires_at`,
    [until],
  );
  return rows;
}

/**
 * Claims one notice; false when it was already sent. The unique (key, kind, days) row is what
 * makes a rerun on the same day (or a second replica) send nothing new.
 */
export async function claimNotice(
  pool: Pool,
  notice: { keyId: string; kind: 'expiring' | 'expired'; daysRemaining: number; sentOn: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO api_key_expiry_notices (key_id, kind, days_remaining, sent_on) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [notice.keyId, notice.kind, notice.daysRemaining, notice.sentOn],
  );
  return (rowCount ?? 0) > 0;
}

/** Gives a claim back when the event could not be published, so the next run retries it. */
export async function releaseNotice(
  pool: Pool,
  notice: { keyId: string; kind: 'expiring' | 'expired'; daysRemaining: number },
): Promise<void> {
  await pool.query(
    'DELETE FROM api_key_expiry_notices WHERE key_id = $1 AND kind = $2 AND days_remaining = $3',
    [notice.keyId, notice.kind, notice.daysRemaining],
  );
}
