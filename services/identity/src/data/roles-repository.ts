import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

export interface PermissionRow {
  code: string;
  description: string;
  is_system: boolean;
}

export interface RoleRow {
  id: string;
  name: string;
  description: string;
  is_system: boolean;
  is_default: boolean;
  permissions: string[];
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

const ROLE_COLUMNS = `r.id, r.name::text AS name, r.description, r.is_system, r.is_default, r.created_at, r.updated_at,
  COALESCE((SELECT array_agg(rp.permission_code ORDER BY rp.permission_code)
              FROM role_permissions rp WHERE rp.role_id = r.id), '{}') AS permissions,
  (SELECT count(*)::int FROM user_roles ur WHERE ur.role_id = r.id) AS user_count`;

/** Postgres unique_violation, e.g. a role name taken by a concurrent insert. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

export async function listPermissions(db: Db, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db.query<PermissionRow>(
      'SELECT code, description, is_system FROM permissions ORDER BY code LIMIT $1 OFFSET $2',
      [limit, offset],
    ),
    db.query<{ total: number }>('SELECT count(*)::int AS total FROM permissions'),
  ]);
  return { rows: rows.rows, total: total.rows[0]!.total };
}

export async function listRoles(db: Db, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db.query<RoleRow>(
      `SELECT ${ROLE_COLUMNS} FROM roles r ORDER BY r.is_system DESC, r.name LIMIT $1 OFFSET $2`,
      [limit, offset],
    ),
    db.query<{ total: number }>('SELECT count(*)::int AS total FROM roles'),
  ]);
  return { rows: rows.rows, total: total.rows[0]!.total };
}

export async function findRole(db: Db, id: string, forUpdate = false): Promise<RoleRow | undefined> {
  const lock = forUpdate ? 'FOR UPDATE OF r' : '';
  const { rows } = await db.query<RoleRow>(`SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.id = $1 ${lock}`, [
    id,
  ]);
  return rows[0];
}

/** Ids of the given roles that exist, with whether each grants `*`. */
export async function findRolesByIds(db: Db, ids: readonly string[]) {
  const { rows } = await db.query<{ id: string; name: string; grants_all: boolean }>(
    `SELECT r.id, r.name::text AS name,
            EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_code = '*') AS grants_all
       FROM roles r WHERE r.id = ANY($1::uuid[])`,
    [ids],
  );
  return rows;
}

/** The given codes that are not permission codes. */
export async function unknownPermissionCodes(db: Db, codes: readonly string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const { rows } = await db.query<{ code: string }>(
    `SELECT c.code FROM unnest($1::text[]) AS c(code)
      WHERE NOT EXISTS (SELECT 1 FROM permissions p WHERE p.code = c.code) ORDER BY c.code`,
    [codes],
  );
  return rows.map((row) => row.code);
}

export async function insertRole(db: Db, name: string, description: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO roles (name, description) VALUES ($1, $2) RETURNING id',
    [name, description],
  );
  return rows[0]!.id;
}

export async function updateRoleFields(
  db: Db,
  id: string,
  fields: { name?: string; description?: string },
): Promise<void> {
  await db.query(
    `UPDATE roles SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = now()
      WHERE id = $1`,
    [id, fields.name ?? null, fields.description ?? null],
  );
}

export async function replaceRolePermissions(db: Db, id: string, codes: readonly string[]): Promise<void> {
  await db.query('DELETE FROM role_permissions WHERE role_id = $1', [id]);
  if (codes.length > 0) {
    await db.query('INSERT INTO role_permissions (role_id, permission_code) SELECT $1, unnest($2::text[])', [
      id,
      [...new Set(codes)],
    ]);
  }
}

export async function deleteRoleRow(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM roles WHERE id = $1', [id]);
}

/** The users holding a role (whose permissions change with it). */
export async function findRoleHolders(db: Db, roleId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>('SELECT user_id FROM user_roles WHERE role_id = $1', [
    roleId,
  ]);
  return rows.map((r) => r.user_id);
}
