import type { Pool, PoolClient } from '@platform/db';
import type { TeamRole } from '@platform/rbac';

/** A user row as login, sessions and the account routes need it. */
export interface AccountRow {
  id: string;
  username: string;
  email: string;
  password_hash: string | null;
  locale: string | null;
  is_active: boolean;
  is_superuser: boolean;
  email_verified: boolean;
  approval_status: 'pending' | 'approved';
  failed_login_attempts: number;
  locked_until: Date | null;
  password_changed_at: Date | null;
  force_password_change: boolean;
  totp_enabled: boolean;
  last_login_at: Date | null;
  created_at: Date;
}

const ACCOUNT_COLUMNS = `id, username::text AS username, email::text AS email, password_hash, locale,
  is_active, is_superuser, email_verified, approval_status, failed_login_attempts, locked_until,
  password_changed_at, force_password_change, totp_enabled, last_login_at, created_at`;

type Db = Pool | PoolClient;

/**
 * The account a login identifier names: a username match wins over an email match (both are
 * case-insensitive citext), so one identifier never names two accounts.
 */
export async function findAccountByLogin(db: Db, identifier: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM users
      WHERE username = $1::citext OR email = $1::citext
      ORDER BY (username = $1::citext) DESC LIMIT 1`,
    [identifier],
  );
  return rows[0];
}

export async function findAccountById(db: Db, userId: string): Promise<AccountRow | undefined> {
  const { rows } = await db.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return rows[0];
}

/**
 * Marks a completed login; returns the previous `last_login_at` (null on the first-ever login). The
 * failure count is settled by the password step (`settleSuccessfulLogin`), never here: resetting it
 * would drop places that concurrent attempts hold.
 */
export async function recordSuccessfulLogin(db: Db, userId: string): Promise<Date | null> {
  const { rows } = await db.query<{ previous: Date | null }>(
    `UPDATE users u SET last_login_at = now()
       FROM (SELECT last_login_at AS previous FROM users WHERE id = $1 FOR UPDATE) old
      WHERE u.id = $1
      RETURNING old.previous`,
    [userId],
  );
  return rows[0]?.previous ?? null;
}

/** Stores a hash made with the current parameters (login rehash); the change date stays. */
export async function replacePasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
}

/** A new password chosen by the user: dated now, any forced change satisfied. */
export async function storeChangedPassword(db: Db, userId: string, hash: string): Promise<void> {
  await db.query(
    `UPDATE users SET password_hash = $2, password_changed_at = now(), force_password_change = false,
            updated_at = now()
      WHERE id = $1`,
    [userId, hash],
  );
}

export interface TeamMembershipRow {
  id: string;
  name: string;
  role: TeamRole;
}

/** Union of the permission codes of the user's roles, and the user's teams with the team role. */
export async function findPermissionsAndTeams(
  db: Db,
  userId: string,
): Promise<{ permissions: string[]; teams: TeamMembershipRow[] }> {
  const [permissions, teams] = await Promise.all([
    db.query<{ code: string }>(
      `SELECT DISTINCT rp.permission_code AS code
         FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
        WHERE ur.user_id = $1 ORDER BY 1`,
      [userId],
    ),
    db.query<TeamMembershipRow>(
      `SELECT t.id, t.name::text AS name, tm.role
         FROM team_members tm JOIN teams t ON t.id = tm.team_id
        WHERE tm.user_id = $1 ORDER BY t.is_default DESC, t.name`,
      [userId],
    ),
  ]);
  return { permissions: permissions.rows.map((r) => r.code), teams: teams.rows };
}
