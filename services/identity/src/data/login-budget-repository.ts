import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

/**
 * The account's login budget in its `users` row (issue 20): `failed_login_attempts` counts wrong
 * passwords only, `login_checks_in_flight` the attempts whose password is being checked. An
 * attempt takes a place before its check while `failed + in_flight < max`, so even if every
 * attempt in flight fails the count reaches `max` exactly and the last one locks; a right
 * password gives its place back and is never a failure.
 */

/** What a try for a place found: a place, a lock (in force, or set now), or every place taken. */
export type LoginPlace =
  | { outcome: 'granted' }
  | { outcome: 'locked'; lockedSeconds: number; lockedNow: boolean }
  | { outcome: 'busy' };

/** In-flight places older than this were lost with their process (no check takes a minute). */
const IN_FLIGHT_STALE_SECONDS = 60;

const LOCK_EXPIRED = 'locked_until IS NOT NULL AND locked_until <= now()';

/**
 * Takes a place in one atomic statement (concurrent attempts queue on the row lock). A lock in
 * force refuses; an expired lock starts a new count; failures that already reached `maxAttempts`
 * with no lock (the limit was lowered since) lock now; every remaining place held by attempts in
 * flight is `busy` and changes nothing (the caller may wait for one to settle).
 */
export async function reserveLoginAttempt(
  db: Db,
  userId: string,
  maxAttempts: number,
  lockoutMinutes: number,
): Promise<LoginPlace> {
  const { rows } = await db.query<{
    outcome: 'granted' | 'locked' | 'locked_now' | 'busy';
    seconds: number | null;
  }>(
    `WITH current AS (
       SELECT CASE WHEN ${LOCK_EXPIRED} THEN 0 ELSE failed_login_attempts END AS failed,
              CASE WHEN ${LOCK_EXPIRED} THEN NULL ELSE locked_until END AS lock,
              CASE WHEN login_checks_since > now() - make_interval(secs => $4)
                   THEN login_checks_in_flight ELSE 0 END AS in_flight
         FROM users WHERE id = $1 FOR UPDATE),
     changed AS (
       UPDATE users u
          SET failed_login_attempts = c.failed,
              locked_until = CASE WHEN c.failed >= $2 THEN now() + make_interval(mins => $3) END,
              login_checks_in_flight = CASE WHEN c.failed >= $2 THEN c.in_flight ELSE c.in_flight + 1 END,
              login_checks_since = CASE WHEN c.failed >= $2 THEN u.login_checks_since ELSE now() END,
              updated_at = now()
         FROM current c
        WHERE u.id = $1 AND c.lock IS NULL AND (c.failed >= $2 OR c.failed + c.in_flight < $2)
        RETURNING u.locked_until)
     SELECT CASE WHEN c.lock IS NOT NULL THEN 'locked'
                 WHEN c.failed >= $2 THEN 'locked_now'
                 WHEN c.failed + c.in_flight < $2 THEN 'granted'
                 ELSE 'busy' END AS outcome,
            ceil(extract(epoch FROM coalesce(c.lock, (SELECT locked_until FROM changed)) - now()))::int AS seconds
       FROM current c`,
    [userId, maxAttempts, lockoutMinutes, IN_FLIGHT_STALE_SECONDS],
  );
  const row = rows[0];
  if (!row) return { outcome: 'locked', lockedSeconds: lockoutMinutes * 60, lockedNow: false };
  if (row.outcome === 'granted' || row.outcome === 'busy') return { outcome: row.outcome };
  return {
    outcome: 'locked',
    lockedSeconds: Math.max(1, row.seconds ?? lockoutMinutes * 60),
    lockedNow: row.outcome === 'locked_now',
  };
}

/**
 * A wrong password: its place becomes a failure. The failure that reaches `maxAttempts` locks
 * (and no other attempt can be in flight then). Returns the count and the lock now in force.
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
    `WITH before AS (
       SELECT failed_login_attempts AS failed, locked_until AS lock, login_checks_in_flight AS in_flight
         FROM users WHERE id = $1 FOR UPDATE)
     UPDATE users u
        SET failed_login_attempts = b.failed + 1,
            login_checks_in_flight = GREATEST(b.in_flight - 1, 0),
            locked_until = CASE WHEN b.failed + 1 >= $2 AND (b.lock IS NULL OR b.lock <= now())
                                THEN now() + make_interval(mins => $3) ELSE b.lock END,
            updated_at = now()
       FROM before b
      WHERE u.id = $1
      RETURNING u.failed_login_attempts, u.locked_until, (u.locked_until IS DISTINCT FROM b.lock) AS locked_now`,
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
 * The right password: its place is given back and the failures counted so far are forgiven (they
 * all settled before it). Never lifts a lock: should one be in force (the limit was lowered while
 * the password was checked), nothing is forgiven and the lock's seconds are returned.
 */
export async function settleSuccessfulLogin(db: Db, userId: string): Promise<number> {
  const { rows } = await db.query<{ locked_seconds: number }>(
    `WITH before AS (
       SELECT locked_until > now() AS locked, locked_until AS lock, login_checks_in_flight AS in_flight
         FROM users WHERE id = $1 FOR UPDATE)
     UPDATE users u
        SET login_checks_in_flight = GREATEST(b.in_flight - 1, 0),
            failed_login_attempts = CASE WHEN b.locked THEN u.failed_login_attempts ELSE 0 END,
            updated_at = now()
       FROM before b
      WHERE u.id = $1
      RETURNING CASE WHEN b.locked THEN ceil(extract(epoch FROM b.lock - now()))::int ELSE 0 END AS locked_seconds`,
    [userId],
  );
  return Math.max(0, rows[0]?.locked_seconds ?? 0);
}
