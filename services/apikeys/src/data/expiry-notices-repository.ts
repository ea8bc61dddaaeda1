import type { Pool, PoolClient } from '@platform/db';

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
 * Claims one notice; false when it was already sent. The unique (key, kind, days) row, inserted in
 * the same transaction as the notice's outbox row, is what makes a rerun on the same day (or a
 * second replica) send nothing new, and a notice claimed always sent.
 */
export async function claimNotice(
  tx: PoolClient,
  notice: { keyId: string; kind: 'expiring' | 'expired'; daysRemaining: number; sentOn: string },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO api_key_expiry_notices (key_id, kind, days_remaining, sent_on) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [notice.keyId, notice.kind, notice.daysRemaining, notice.sentOn],
  );
  return (rowCount ?? 0) > 0;
}
