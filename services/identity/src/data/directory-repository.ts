import type { Pool } from '@platform/db';
import type { TeamRole } from '@platform/rbac';

export interface UserContactRow {
  id: string;
  username: string;
  email: string;
  /** '' when the user has no preferred locale. */
  locale: string;
  is_active: boolean;
}

/** Contacts of the given (valid, distinct) user ids; unknown ids have no row. */
export async function findUserContacts(pool: Pool, ids: string[]): Promise<UserContactRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await pool.query<UserContactRow>(
    `SELECT id, username::text AS username, email::text AS email, coalesce(locale, '') AS locale, is_active
       FROM users WHERE id = ANY($1::uuid[]) ORDER BY id`,
    [ids],
  );
  return rows;
}

/** The team's name (undefined when it does not exist) and the user's role in it (null: not a member). */
export async function findTeamMembership(
  pool: Pool,
  teamId: string,
  userId: string | null,
): Promise<{ name: string; role: TeamRole | null } | undefined> {
  const { rows } = await pool.query<{ name: string; role: TeamRole | null }>(
    `SELECT t.name::text AS name,
            (SELECT m.role FROM team_members m WHERE m.team_id = t.id AND m.user_id = $2::uuid) AS role
       FROM teams t WHERE t.id = $1`,
    [teamId, userId],
  );
  return rows[0];
}

export async function teamExists(pool: Pool, teamId: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM teams WHERE id = $1', [teamId]);
  return rows.length > 0;
}

/**
 * Up to `limit` member ids of a team after `afterUserId`, ordered by user id: keyset paging on the
 * (team_id, user_id) primary key, so a page never repeats or skips a member that stays put.
 */
export async function listTeamMemberIdsAfter(
  pool: Pool,
  teamId: string,
  roles: readonly TeamRole[],
  afterUserId: string | null,
  limit: number,
): Promise<string[]> {
  const { rows } = await pool.query<{ user_id: string }>(
    `SELECT user_id FROM team_members
      WHERE team_id = $1
        AND (cardinality($2::text[]) = 0 OR role = ANY($2::text[]))
        AND ($3::uuid IS NULL OR user_id > $3::uuid)
      ORDER BY user_id LIMIT $4`,
    [teamId, roles, afterUserId, limit],
  );
  return rows.map((row) => row.user_id);
}

/** Up to `limit` ids of active users after `afterUserId`, ordered by id (keyset on the primary key). */
export async function listActiveUserIdsAfter(
  pool: Pool,
  afterUserId: string | null,
  limit: number,
): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM users WHERE is_active AND ($1::uuid IS NULL OR id > $1::uuid) ORDER BY id LIMIT $2`,
    [afterUserId, limit],
  );
  return rows.map((row) => row.id);
}
