import { expect, it } from 'vitest';
import type { IdentityHarness } from './harness.js';
import { createTestUser } from './rbac-users.js';

/** A guarded route as a security table names it: method, a concrete path, a valid body if it takes one. */
export type GuardedRoute = readonly [method: string, path: string, json?: unknown];

export interface RouteSecurityOptions {
  /**
   * The routes need a global permission: a signed-in user with no role is refused 403 / 3000.
   * Routes open to every signed-in user (teams, TOTP, own SSO connections) leave it off.
   */
  permission: boolean;
}

/**
 * Registers a route file's security cases for its guarded routes, each checked on every route of
 * the table (the gateway's mapping, docs/security.md): no token → 401 / 2000, a malformed token →
 * 403 / 2003, a logged-out token → 401 / 2001, and with `permission` a signed-in user without it →
 * 403 / 3000. `live` and `routes` are called inside the tests, so they may name what hooks made.
 */
export function itRefusesUnauthorizedCallers(
  live: () => IdentityHarness,
  routes: () => readonly GuardedRoute[],
  options: RouteSecurityOptions,
): void {
  const expectAnswer = async (token: string | undefined, status: number, code: number) => {
    for (const [method, path, json] of routes()) {
      const res = await live().request(method, path, { token, json });
      expect([method, path, res.status, res.body.code]).toEqual([method, path, status, code]);
    }
  };

  it('every route: no token → 401 / 2000; a malformed token → 403 / 2003', async () => {
    await expectAnswer(undefined, 401, 2000);
    await expectAnswer('not-a-jwt', 403, 2003);
  });

  it('every route: a logged-out token → 401 / 2001', async () => {
    const user = await createTestUser(live(), { roles: ['Admin'] });
    const { tokens, sessions } = live().identity.dependencies;
    await sessions.revoke(await tokens.verify(user.token, 'access'));
    await expectAnswer(user.token, 401, 2001);
  });

  if (options.permission) {
    it('every route: a signed-in user without the permission → 403 / 3000', async () => {
      const noRights = await createTestUser(live(), { roles: [] });
      await expectAnswer(noRights.token, 403, 3000);
    });
  }
}
