import type { Pool, PoolClient } from '@platform/db';

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

/** A place in the login budget, or the lock that refused one. */
export type LoginAttemptSlot = { slot: number } | { lockedSeconds: number; lockedNow: boolean };

const LOCK_EXPIRED = 'locked_until IS NOT NULL AND locked_until <= now()';

/**
 * Takes a place in the account's login budget BEFORE the password is checked, in one atomic
 * statement (concurrent attempts queue on the row lock and re-read it). `failed_login_attempts`
 * counts failures plus attempts still being evaluated, so a burst can never have more than
 * `maxAttempts` of them checked. A full budget with no lock yet (every place taken by attempts in
 * flight) locks the account now: the burst itself is the reason. An expired lock starts a new count.
 */
export async function reserveLoginAttempt(
  db: Db,
  userId: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<LoginAttemptSlot> {
  const { rows } = await db.query<{
    slot: number | null;
    locked_seconds: number | null;
    locked_now: boolean;
  }>(
    `WITH current AS (
       SELECT CASE WHEN ${LOCK_EXPIRED} THEN 0 ELSE failed_login_attempts END AS used,
              CASE WHEN ${LOCK_EXPIRED} THEN NULL ELSE locked_until END AS lock
         FROM users WHERE id = $1 FOR UPDATE)
     UPDATE users u
        SET failed_login_attempts = CASE WHEN current.lock IS NULL AND current.used < $2
                                         THEN current.used + 1 ELSE current.used END,
            locked_until = CASE WHEN current.lock IS NOT NULL THEN current.lock
                                WHEN current.used < $2 THEN NULL
                                ELSE now() + make_interval(mins => $3) END,
            updated_at = now()
       FROM current
      WHERE u.id = $1
      RETURNING CASE WHEN current.lock IS NULL AND current.used < $2 THEN u.failed_login_attempts END AS slot,
                ceil(extract(epoch FROM u.locked_until - now()))::int AS locked_seconds,
                (current.lock IS NULL AND current.used >= $2) AS locked_now`,
    [userId, maxAttempts, lockoutMinutes],
  );
  const row = rows[0];
  if (row?.slot) return { slot: row.slot };
  return {
    lockedSeconds: Math.max(1, row?.locked_seconds ?? lockoutMinutes * 60),
    lockedNow: row?.locked_now ?? false,
  };
}

/**
 * A wrong password: its place stays counted as a failure. Locks the account when the count has
 * reached `maxAttempts` (and no lock is on). Returns the count and the lock now in force, if any.
 */
export async function settleFailedLogin(
  db: Db,
  userId: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<{ failedAttempts: number; lockedUntil: Date | null; lockedNow: boolean }> {
  const { rows } = await db.query<{
    failed_login_attempts: number;
    locked_until: Date | null;
    locked_now: boolean;
  }>(
    `WITH before AS (SELECT locked_until AS lock FROM users WHERE id = $1 FOR UPDATE)
     UPDATE users u
        SET locked_until = CASE WHEN u.failed_login_attempts >= $2
                                 AND (u.locked_until IS NULL OR u.locked_until <= now())
                                THEN now() + make_interval(mins => $3) ELSE u.locked_until END,
            updated_at = now()
       FROM before
      WHERE u.id = $1
      RETURNING u.failed_login_attempts, u.locked_until,
                (u.locked_until IS DISTINCT FROM before.lock) AS locked_now`,
    [userId, maxAttempts, lockoutMinutes],
  );
  const row = rows[0];
  const lockedUntil = row?.locked_until && row.locked_until.getTime() > Date.now() ? row.locked_until : null;
  return {
    failedAttempts: row?.failed_login_attempts ?? 0,
    lockedUntil,
    lockedNow: row?.locked_now ?? false,
  };
}

/**
 * The right password for the attempt that holds place `slot`: that attempt and every one counted
 * before it are forgiven (serially they all came before the success); attempts that took a place
 * after it stay counted. Never lifts a lock: when attempts of the same burst locked the account
 * meanwhile, nothing changes and the lock's seconds are returned (the success must be refused).
 */
export async function settleSuccessfulLogin(db: Db, userId: string, slot: number): Promise<number> {
  const { rows } = await db.query<{ locked_seconds: number | null }>(
    `WITH updated AS (
       UPDATE users SET failed_login_attempts = GREATEST(failed_login_attempts - $2, 0), updated_at = now()
        WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
        RETURNING id)
     SELECT CASE WHEN EXISTS (SELECT 1 FROM updated) THEN 0
                 ELSE ceil(extract(epoch FROM locked_until - now()))::int END AS locked_seconds
       FROM users WHERE id = $1`,
    [userId, slot],
  );
  return Math.max(0, rows[0]?.locked_seconds ?? 0);
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
  role: string;
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
