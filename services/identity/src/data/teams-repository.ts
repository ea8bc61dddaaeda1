import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

import type { TeamRole } from '@platform/rbac';

export type { TeamRole };

export interface TeamRow {
  id: string;
  name: string;
  description: string;
  is_default: boolean;
  member_count: number;
  /** The viewer's team role, null when not a member. */
  my_role: TeamRole | null;
  created_at: Date;
  updated_at: Date;
}

export interface TeamMemberRow {
  team_id: string;
  user_id: string;
  username: string;
  email: string;
  role: TeamRole;
  joined_at: Date;
}

const TEAM_COLUMNS = `t.id, t.name::text AS name, t.description, t.is_default, t.created_at, t.updated_at,
  (SELECT count(*)::int FROM team_members m WHERE m.team_id = t.id) AS member_count,
  (SELECT m.role FROM team_members m WHERE m.team_id = t.id AND m.user_id = $1) AS my_role`;

export async function insertTeam(db: Db, name: string, description: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO teams (name, description) VALUES ($1, $2) RETURNING id',
    [name, description],
  );
  return rows[0]!.id;
}

/** `viewerId` fills `my_role`; `forUpdate` locks the team row so membership changes serialize. */
export async function findTeam(db: Db, teamId: string, viewerId: string, forUpdate = false) {
  const lock = forUpdate ? 'FOR UPDATE OF t' : '';
  const { rows } = await db.query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.id = $2 ${lock}`, [
    viewerId,
    teamId,
  ]);
  return rows[0];
}

/** Teams the viewer belongs to, or every team when `all`. */
export async function listTeams(db: Db, viewerId: string, all: boolean, limit: number, offset: number) {
  const filter = all
    ? ''
    : 'WHERE EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = t.id AND m.user_id = $1)';
  const [rows, total] = await Promise.all([
    db.query<TeamRow>(
      `SELECT ${TEAM_COLUMNS} FROM teams t ${filter} ORDER BY t.is_default DESC, t.name LIMIT $2 OFFSET $3`,
      [viewerId, limit, offset],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM teams t ${filter}`,
      all ? [] : [viewerId],
    ),
  ]);
  return { rows: rows.rows, total: total.rows[0]!.total };
}

const MEMBER_COLUMNS = `m.team_id, m.user_id, u.username::text AS username, u.email::text AS email, m.role, m.joined_at`;

export async function listMembers(db: Db, teamId: string): Promise<TeamMemberRow[]> {
  const { rows } = await db.query<TeamMemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM team_members m JOIN users u ON u.id = m.user_id
      WHERE m.team_id = $1
      ORDER BY CASE m.role WHEN 'OWNER' THEN 0 WHEN 'ADMIN' THEN 1 ELSE 2 END, m.joined_at, u.username`,
    [teamId],
  );
  return rows;
}

/** One page of the members, in the same order as `listMembers`, with the total count. */
export async function listMembersPage(
  db: Db,
  teamId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TeamMemberRow[]; total: number }> {
  const [{ rows }, count] = await Promise.all([
    db.query<TeamMemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM team_members m JOIN users u ON u.id = m.user_id
        WHERE m.team_id = $1
        ORDER BY CASE m.role WHEN 'OWNER' THEN 0 WHEN 'ADMIN' THEN 1 ELSE 2 END, m.joined_at, u.username, m.user_id
        LIMIT $2 OFFSET $3`,
      [teamId, limit, offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1', [teamId]),
  ]);
  return { rows, total: count.rows[0]!.n };
}

export async function findMember(db: Db, teamId: string, userId: string): Promise<TeamMemberRow | undefined> {
  const { rows } = await db.query<TeamMemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM team_members m JOIN users u ON u.id = m.user_id
      WHERE m.team_id = $1 AND m.user_id = $2`,
    [teamId, userId],
  );
  return rows[0];
}

export async function insertMember(db: Db, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await db.query('INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3)', [
    teamId,
    userId,
    role,
  ]);
}

export async function setMemberRole(db: Db, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await db.query('UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2', [
    teamId,
    userId,
    role,
  ]);
}

export async function deleteMember(db: Db, teamId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
}

export async function deleteTeamRow(db: Db, teamId: string): Promise<void> {
  await db.query('DELETE FROM teams WHERE id = $1', [teamId]);
}

export async function touchTeam(db: Db, teamId: string): Promise<void> {
  await db.query('UPDATE teams SET updated_at = now() WHERE id = $1', [teamId]);
}

export async function userExists(db: Db, userId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  return rows.length > 0;
}
