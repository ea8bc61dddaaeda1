import type { VerificationPurposeName } from '@platform/contracts';
import type { Pool, PoolClient } from '@platform/db';

type Queryable = Pool | PoolClient;

/** What a token proves (VERIFICATION_PURPOSES in @platform/contracts). */
export type VerificationPurpose = VerificationPurposeName;

/** The account fields the verification and reset use cases need. */
export interface MailRecipientRow {
  id: string;
  email: string;
  username: string;
  locale: string | null;
  email_verified: boolean;
}

export interface VerificationTokenRow {
  id: string;
  email: string;
  purpose: VerificationPurpose;
  code_hash: string;
  expires_at: Date;
  consumed_at: Date | null;
  attempts: number;
}

const TOKEN_COLUMNS = 'id, email::text AS email, purpose, code_hash, expires_at, consumed_at, attempts';

export async function findUserByEmail(db: Queryable, email: string): Promise<MailRecipientRow | undefined> {
  const { rows } = await db.query<MailRecipientRow>(
    `SELECT id, email::text AS email, username::text AS username, locale, email_verified
       FROM users WHERE email = $1`,
    [email],
  );
  return rows[0];
}

/**
 * Stores a new code + link token (hashes only) and retires every earlier open one of the same
 * email and purpose, so only the newest mail works.
 */
export async function insertVerificationToken(
  db: PoolClient,
  token: {
    email: string;
    purpose: VerificationPurpose;
    codeHash: string;
    linkTokenHash: string;
    expiresAt: Date;
  },
): Promise<string> {
  await db.query(
    `UPDATE verification_tokens SET consumed_at = now()
      WHERE email = $1 AND purpose = $2 AND consumed_at IS NULL`,
    [token.email, token.purpose],
  );
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO verification_tokens (email, purpose, code_hash, link_token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [token.email, token.purpose, token.codeHash, token.linkTokenHash, token.expiresAt],
  );
  return rows[0]!.id;
}

/** The newest open (unconsumed) token of an email and purpose, expired or not. */
export async function findOpenToken(
  db: Queryable,
  email: string,
  purpose: VerificationPurpose,
): Promise<VerificationTokenRow | undefined> {
  const { rows } = await db.query<VerificationTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM verification_tokens
      WHERE email = $1 AND purpose = $2 AND consumed_at IS NULL
      ORDER BY created_at DESC LIMIT 1`,
    [email, purpose],
  );
  return rows[0];
}

export async function findTokenByLinkHash(
  db: Queryable,
  linkTokenHash: string,
): Promise<VerificationTokenRow | undefined> {
  const { rows } = await db.query<VerificationTokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM verification_tokens WHERE link_token_hash = $1`,
    [linkTokenHash],
  );
  return rows[0];
}

/** Counts a wrong code; the attempt that reaches `maxAttempts` consumes the token. */
export async function recordFailedAttempt(
  db: Queryable,
  tokenId: string,
  maxAttempts: number,
): Promise<void> {
  await db.query(
    `UPDATE verification_tokens
        SET attempts = attempts + 1,
            consumed_at = CASE WHEN attempts + 1 >= $2 THEN now() ELSE consumed_at END
      WHERE id = $1 AND consumed_at IS NULL`,
    [tokenId, maxAttempts],
  );
}

/** Single use: true only for the one caller that consumed the still-open token. */
export async function consumeToken(db: Queryable, tokenId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE verification_tokens SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL`,
    [tokenId],
  );
  return rowCount === 1;
}

/** Retires every open token of an email and purpose (after a successful reset). */
export async function consumeOpenTokens(
  db: Queryable,
  email: string,
  purpose: VerificationPurpose,
): Promise<void> {
  await db.query(
    `UPDATE verification_tokens SET consumed_at = now()
      WHERE email = $1 AND purpose = $2 AND consumed_at IS NULL`,
    [email, purpose],
  );
}

/** Marks the address verified; undefined when no user has it (any more). */
export async function markEmailVerified(db: Queryable, email: string): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE users SET email_verified = true, updated_at = now() WHERE email = $1 RETURNING id`,
    [email],
  );
  return rows[0];
}

/**
 * Sets a new password hash and lifts a lockout: the failed-attempt counter, `locked_until` and an
 * admin-forced change are cleared (the user just chose a new password through their mailbox).
 */
export async function setPasswordAfterReset(
  db: Queryable,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.query(
    `UPDATE users
        SET password_hash = $2, password_changed_at = now(), failed_login_attempts = 0,
            locked_until = NULL, force_password_change = false, updated_at = now()
      WHERE id = $1`,
    [userId, passwordHash],
  );
}
