import { randomUUID } from 'node:crypto';
import type { IdentityHarness } from './harness.js';

export interface TestUser {
  id: string;
  username: string;
  email: string;
  token: string;
}

export interface TestUserOptions {
  /** Seeded or custom role names to assign (default: `User`). */
  roles?: string[];
  superuser?: boolean;
  isActive?: boolean;
  approvalStatus?: 'pending' | 'approved';
  /** Name prefix; a unique suffix is always added. */
  name?: string;
}

/**
 * A user inserted straight into the test database with an access token minted by the real
 * TokenService (no registration or login involved), so RBAC tests stand on their own.
 */
export async function createTestUser(
  harness: IdentityHarness,
  options: TestUserOptions = {},
): Promise<TestUser> {
  const { pool, tokens } = harness.identity.dependencies;
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
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2::text[])`,
      [id, roles],
    );
  }
  const issued = await tokens.issue(id, 'access', 3600);
  return { id, username, email, token: issued.token };
}

/** The id of a role by name (seeded or created by the test). */
export async function roleId(harness: IdentityHarness, name: string): Promise<string> {
  const { rows } = await harness.identity.dependencies.pool.query<{ id: string }>(
    'SELECT id FROM roles WHERE name = $1',
    [name],
  );
  return rows[0]!.id;
}
