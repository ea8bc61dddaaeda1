import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/** A user as the TOTP use cases need it (secrets still encrypted). */
export interface TotpUserRow {
  id: string;
  username: string;
  is_active: boolean;
  approval_status: 'pending' | 'approved';
  totp_enabled: boolean;
  totp_secret_enc: string | null;
  totp_pending_secret_enc: string | null;
  force_password_change: boolean;
  password_changed_at: Date | null;
  created_at: Date;
}

export async function findTotpUser(db: Db, userId: string): Promise<TotpUserRow | undefined> {
  const { rows } = await db.query<TotpUserRow>(
    `SELECT id, username::text AS username, is_active, approval_status, totp_enabled, totp_secret_enc,
            totp_pending_secret_enc, force_password_change, password_changed_at, created_at
       FROM users WHERE id = $1`,
    [userId],
  );
  return rows[0];
}

/** A new setup replaces any earlier pending secret (only the latest QR code works). */
export async function savePendingSecret(db: Db, userId: string, secretEnc: string): Promise<void> {
  await db.query(`UPDATE users SET totp_pending_secret_enc = $2, updated_at = now() WHERE id = $1`, [
    userId,
    secretEnc,
  ]);
}

/**
 * Promotes the pending secret verified by the caller. The `pending = $2` guard makes a concurrent
 * second setup (new secret) or a concurrent enable lose cleanly: false when nothing changed.
 */
export async function activatePendingSecret(db: Db, userId: string, pendingEnc: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE users SET totp_enabled = true, totp_secret_enc = totp_pending_secret_enc,
            totp_pending_secret_enc = NULL, updated_at = now()
      WHERE id = $1 AND NOT totp_enabled AND totp_pending_secret_enc = $2`,
    [userId, pendingEnc],
  );
  return rowCount === 1;
}

export async function clearTotp(db: Db, userId: string): Promise<void> {
  await db.query(
    `UPDATE users SET totp_enabled = false, totp_secret_enc = NULL, totp_pending_secret_enc = NULL,
            updated_at = now() WHERE id = $1`,
    [userId],
  );
  await db.query(`DELETE FROM totp_backup_codes WHERE user_id = $1`, [userId]);
}

/** Drops every backup code of the user (used or not) and stores the new set. */
export async function replaceBackupCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
  await db.query(`DELETE FROM totp_backup_codes WHERE user_id = $1`, [userId]);
  await db.query(`INSERT INTO totp_backup_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [
    userId,
    hashes,
  ]);
}

/** Marks one unused code used; the single UPDATE makes a code good for exactly one login. */
export async function consumeBackupCode(db: Db, userId: string, hash: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE totp_backup_codes SET used_at = now()
      WHERE id = (SELECT id FROM totp_backup_codes
                   WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL
                   LIMIT 1 FOR UPDATE SKIP LOCKED)`,
    [userId, hash],
  );
  return rowCount === 1;
}

export async function countUnusedBackupCodes(db: Db, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM totp_backup_codes WHERE user_id = $1 AND used_at IS NULL`,
    [userId],
  );
  return rows[0]?.n ?? 0;
}
