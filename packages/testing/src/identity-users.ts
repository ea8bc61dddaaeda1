import { randomUUID } from 'node:crypto';
import type { Pool } from '@platform/db';

export interface IdentityUser {
  id: string;
  username: string;
  email: string;
  /** A 1-hour access token, as identity's login would issue it. */
  token: string;
}

export interface IdentityUserOptions {
  /** Role names (default `['User']`; `[]` gives no permissions at all). */
  roles?: string[];
  superuser?: boolean;
  isActive?: boolean;
  approvalStatus?: 'pending' | 'approved';
  /** Name prefix; a unique suffix is always added. */
  name?: string;
}

/** What mints the token: identity's TokenService (`@platform/auth`) with the platform's key. */
export interface AccessTokenIssuer {
  issue(userId: string, type: 'access', lifetimeSeconds: number): Promise<{ token: string }>;
}

/**
 * A verified user inserted straight into identity's database, with an access token from the real
 * TokenService: no registration or login involved (those are identity's own tests).
 */
export async function insertIdentityUser(
  pool: Pool,
  tokens: AccessTokenIssuer,
  options: IdentityUserOptions = {},
): Promise<IdentityUser> {
  const username = `${options.name ?? 'u'}_${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.test`;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO users (username, email, password_hash, is_superuser, is_active, approval_status, email_verified)
     VALUES ($1, $2, 'not-a-real-hash', $3, $4, $5, true) RETURNING id`,
    [
      username,
      email,
      options.superuser ?? false,
      options.isActive ?? true,
      options.approvalStatus ?? 'approved',
    ],
  );
  const id = rows[0]!.id;
  const roles = options.roles ?? ['User'];
  if (roles.length > 0) {
    await pool.query(
      'INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2::text[])',
      [id, roles],
    );
  }
  const issued = await tokens.issue(id, 'access', 3600);
  return { id, username, email, token: issued.token };
}
