import { insertIdentityUser, type IdentityUser, type IdentityUserOptions } from '@platform/testing';
import type { IdentityHarness } from './harness.js';

export type TestUser = IdentityUser;
export type TestUserOptions = IdentityUserOptions;

/** A user inserted straight into the harness's database (see @platform/testing `insertIdentityUser`). */
export function createTestUser(harness: IdentityHarness, options: TestUserOptions = {}): Promise<TestUser> {
  const { pool, tokens } = harness.identity.dependencies;
  return insertIdentityUser(pool, tokens, options);
}

/** The id of a role by name (seeded or created by the test). */
export async function roleId(harness: IdentityHarness, name: string): Promise<string> {
  const { rows } = await harness.identity.dependencies.pool.query<{ id: string }>(
    'SELECT id FROM roles WHERE name = $1',
    [name],
  );
  return rows[0]!.id;
}
