import type { Pool, PoolClient } from '@platform/db';
import type { AccountRow } from './auth-account-repository.js';

type Db = Pool | PoolClient;

export interface NewAccount {
  username: string;
  email: string;
  /** Null for accounts created through SSO (no password until a reset sets one). */
  passwordHash: string | null;
  locale: string;
  isActive: boolean;
  isSuperuser: boolean;
  emailVerified: boolean;
  approvalStatus: 'pending' | 'approved';
}

export async function anyUserExists(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS exists');
  return rows[0]?.exists ?? false;
}

/**
 * Serializes "am I the very first user?" between concurrent registrations (released at commit),
 * so two simultaneous first sign-ups cannot both become superuser.
 */
export async function lockFirstUserDecision(client: PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('identity.register.first_user'))`);
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE username = $1::citext', [username]);
  return rows.length > 0;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE email = $1::citext', [email]);
  return rows.length > 0;
}

export async function insertAccount(db: Db, account: NewAccount): Promise<AccountRow> {
  const { rows } = await db.query<AccountRow>(
    `INSERT INTO users (username, email, password_hash, locale, is_active, is_superuser, email_verified,
                        approval_status, password_changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $3::text IS NULL THEN NULL ELSE now() END)
     RETURNING id, username::text AS username, email::text AS email, password_hash, locale, is_active,
               is_superuser, email_verified, approval_status, failed_login_attempts, locked_until,
               password_changed_at, force_password_change, totp_enabled, last_login_at, created_at`,
    [
      account.username,
      account.email,
      account.passwordHash,
      account.locale,
      account.isActive,
      account.isSuperuser,
      account.emailVerified,
      account.approvalStatus,
    ],
  );
  return rows[0]!;
}

/** The seeded `Super Admin` role for the very first user, else the role marked `is_default`. */
export async function assignInitialRole(db: Db, userId: string, superAdmin: boolean): Promise<void> {
  await db.query(
    superAdmin
      ? `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'Super Admin'`
      : `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE is_default`,
    [userId],
  );
}

export async function joinDefaultTeam(db: Db, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO team_members (team_id, user_id, role) SELECT id, $1, 'MEMBER' FROM teams WHERE is_default
     ON CONFLICT DO NOTHING`,
    [userId],
  );
}

/**
 * Active users who can approve accounts: superusers and holders of `*` or `admin:users:update`.
 * They receive `user.pending_approval`.
 */
export async function findApprovers(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT u.id FROM users u
      WHERE u.is_active AND u.approval_status = 'approved'
        AND (u.is_superuser OR EXISTS (
              SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
               WHERE ur.user_id = u.id AND rp.permission_code IN ('*', 'admin:users:update')))
      ORDER BY u.created_at LIMIT 100`,
  );
  return rows.map((r) => r.id);
}
