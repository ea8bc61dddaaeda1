import type { Pool } from '@platform/db';

export interface PrincipalRow {
  user_id: string;
  username: string;
  is_superuser: boolean;
  is_active: boolean;
  approval_status: 'pending' | 'approved';
  permissions: string[];
  team_ids: string[];
}

/** One query: the user with the union of its roles' permissions and its team ids. */
export async function findPrincipal(pool: Pool, userId: string): Promise<PrincipalRow | undefined> {
  const { rows } = await pool.query<PrincipalRow>(
    `SELECT u.id AS user_id, u.username::text AS username, u.is_superuser, u.is_active, u.approval_status,
            COALESCE((SELECT array_agg(DISTINCT rp.permission_code ORDER BY rp.permission_code)
                        FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
                       WHERE ur.user_id = u.id), '{}') AS permissions,
            COALESCE((SELECT array_agg(tm.team_id::text ORDER BY tm.team_id)
                        FROM team_members tm WHERE tm.user_id = u.id), '{}') AS team_ids
       FROM users u
      WHERE u.id = $1`,
    [userId],
  );
  return rows[0];
}
