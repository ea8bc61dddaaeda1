import type { Pool, PoolClient } from '@platform/db';

type Db = Pool | PoolClient;

export interface AdminUserRow {
  id: string;
  username: string;
  email: string;
  is_active: boolean;
  is_superuser: boolean;
  email_verified: boolean;
  approval_status: 'pending' | 'approved';
  totp_enabled: boolean;
  force_password_change: boolean;
  roles: { id: string; name: string }[];
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = `u.id, u.username::text AS username, u.email::text AS email, u.is_active, u.is_superuser,
  u.email_verified, u.approval_status, u.totp_enabled, u.force_password_change, u.last_login_at, u.created_at,
  u.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name::text) ORDER BY r.name)
              FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]') AS roles`;

export interface UserFilters {
  approvalStatus?: string;
  isActive?: boolean;
  search?: string;
}

/** `%`, `_` and `\` in a search term match themselves. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(db: Db, filters: UserFilters, limit: number, offset: number) {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filters.approvalStatus) {
    args.push(filters.approvalStatus);
    where.push(`u.approval_status = $${args.length}`);
  }
  if (filters.isActive !== undefined) {
    args.push(filters.isActive);
    where.push(`u.is_active = $${args.length}`);
  }
  if (filters.search) {
    args.push(likePattern(filters.search));
    where.push(`(u.username::text ILIKE $${args.length} OR u.email::text ILIKE $${args.length})`);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [rows, total] = await Promise.all([
    db.query<AdminUserRow>(
      `SELECT ${USER_COLUMNS} FROM users u ${clause} ORDER BY u.created_at DESC, u.id
        LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, limit, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM users u ${clause}`, args),
  ]);
  return { rows: rows.rows, total: total.rows[0]!.total };
}

export async function findAdminUser(
  db: Db,
  id: string,
  forUpdate = false,
): Promise<AdminUserRow | undefined> {
  const lock = forUpdate ? 'FOR UPDATE OF u' : '';
  const { rows } = await db.query<AdminUserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1 ${lock}`,
    [id],
  );
  return rows[0];
}

/** Updates account flags; only the given ones change. */
export async function updateUserFlags(
  db: Db,
  id: string,
  flags: { isActive?: boolean; approvalStatus?: 'approved'; forcePasswordChange?: boolean },
): Promise<void> {
  await db.query(
    `UPDATE users SET is_active = COALESCE($2, is_active), approval_status = COALESCE($3, approval_status),
            force_password_change = COALESCE($4, force_password_change), updated_at = now()
      WHERE id = $1`,
    [id, flags.isActive ?? null, flags.approvalStatus ?? null, flags.forcePasswordChange ?? null],
  );
}

export async function replaceUserRoles(db: Db, userId: string, roleIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM user_roles WHERE user_id = $1', [userId]);
  if (roleIds.length > 0) {
    await db.query('INSERT INTO user_roles (user_id, role_id) SELECT $1, unnest($2::uuid[])', [
      userId,
      [...new Set(roleIds)],
    ]);
  }
}

/** Whether any of the user's current roles grants `*`. */
export async function userHoldsEverything(db: Db, userId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
      WHERE ur.user_id = $1 AND rp.permission_code = '*' LIMIT 1`,
    [userId],
  );
  return rows.length > 0;
}
