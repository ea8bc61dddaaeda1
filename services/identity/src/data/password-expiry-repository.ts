import type { Pool, PoolClient } from '@platform/db';

/** Epoch microseconds of when the user's current password was set: the password's identity. */
const PASSWORD_VERSION = `(extract(epoch FROM coalesce(u.password_changed_at, u.created_at)) * 1000000)::bigint`;

export interface PasswordExpiryCandidate {
  id: string;
  username: string;
  password_set_at: Date;
  /** bigint as text (exact). */
  password_version: string;
}

/**
 * Active users with a password that expires before `until` (expired ones included), except those
 * whose current password already had its `expired` notice. SSO-only accounts have no password.
 */
export async function findPasswordExpiryCandidates(
  pool: Pool,
  maxAgeDays: number,
  until: Date,
): Promise<PasswordExpiryCandidate[]> {
  const { rows } = await pool.query<PasswordExpiryCandidate>(
    `SELECT u.id, u.username::text AS username,
            coalesce(u.password_changed_at, u.created_at) AS password_set_at,
            ${PASSWORD_VERSION}::text AS password_version
       FROM users u
      WHERE u.is_active AND u.password_hash IS NOT NULL
        AND coalesce(u.password_changed_at, u.created_at) + make_interval(days => $1) < $2
        AND NOT EXISTS (
          SELECT 1 FROM password_expiry_notices n
           WHERE n.user_id = u.id AND n.kind = 'expired' AND n.password_version = ${PASSWORD_VERSION})
      ORDER BY u.id`,
    [maxAgeDays, until],
  );
  return rows;
}

/**
 * Claims one notice; false when it was already sent, or when the user's password changed since it
 * was read (that notice is about a password that no longer exists). Inserted in the same
 * transaction as the notice's outbox row.
 */
export async function claimPasswordNotice(
  tx: PoolClient,
  notice: {
    userId: string;
    passwordVersion: string;
    kind: 'expiring' | 'expired';
    daysRemaining: number;
    sentOn: string;
  },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO password_expiry_notices (user_id, password_version, kind, days_remaining, sent_on)
     SELECT u.id, $2::bigint, $3, $4, $5 FROM users u WHERE u.id = $1 AND ${PASSWORD_VERSION} = $2::bigint
     ON CONFLICT DO NOTHING`,
    [notice.userId, notice.passwordVersion, notice.kind, notice.daysRemaining, notice.sentOn],
  );
  return (rowCount ?? 0) > 0;
}

/** Forgets the claims of passwords that have since been replaced; returns how many rows went. */
export async function deleteReplacedPasswordNotices(pool: Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM password_expiry_notices n USING users u
      WHERE n.user_id = u.id AND n.password_version <> ${PASSWORD_VERSION}`,
  );
  return rowCount ?? 0;
}
