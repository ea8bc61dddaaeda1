import { routeTable, type RouteDefinition } from '@platform/gateway';
import { routeSecurity, type GuardedRoute } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { IdentityHarness } from './harness.js';
import { createTestUser } from './rbac-users.js';

type Route = RouteDefinition<unknown>;

const ANY_ID = '00000000-0000-4000-8000-000000000000';
const label = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;
/** The route's path with every `:param` filled in (the gateway checks auth before input). */
const concrete = (route: Route) => route.path.replace(/:[A-Za-z0-9_]+/g, ANY_ID);
const bodyOf = (route: Route) => (route.method === 'get' || route.method === 'delete' ? undefined : {});
/** The routes as the shared table check (`routeSecurity` of `@platform/testing`) sends them. */
const guarded = (routes: Route[]): GuardedRoute[] =>
  routes.map((route) => [route.method.toUpperCase(), concrete(route), bodyOf(route)]);

/**
 * The security cases of a route file, on the routes of the gateway's real table whose path `paths`
 * matches (so a route added there is covered here the day it is added), each case checked
 * on every one of them with the gateway's mapping (docs/security.md): no token → 401 / 2000, a
 * malformed or foreign-signed token → 403 / 2003 and, where the route needs a global permission,
 * a signed-in user without it → 403 / 3000 (the shared `routeSecurity`), and identity's own case,
 * a logged-out token → 401 / 2001. Resource-level refusals (another user's team or connection) are
 * the route file's own tests.
 */
export function describeRouteSecurity(live: () => IdentityHarness, paths: RegExp): void {
  // Public routes are not filtered out: one that matches (a guarded route made public) fails here.
  const routes = (routeTable as Route[]).filter((route) => paths.test(route.path));
  if (routes.length === 0) throw new Error(`no gateway route matches ${paths}`);
  const withPermission = routes.filter((route) => route.permission);

  const expectAnswer = async (on: Route[], token: string | undefined, status: number, code: number) => {
    for (const route of on) {
      const res = await live().request(route.method.toUpperCase(), concrete(route), {
        token,
        json: bodyOf(route),
      });
      expect([label(route), res.status, res.body.code]).toEqual([label(route), status, code]);
    }
  };

  describe(`security: ${routes.map(label).join(', ')}`, () => {
    it('no token → 401 / 2000; a malformed or foreign-signed token → 403 / 2003', async () => {
      const { answers, expected } = await routeSecurity(live().request, guarded(routes));
      expect(answers).toEqual(expected);
    });

    it('a logged-out token → 401 / 2001', async () => {
      const user = await createTestUser(live(), { roles: ['Admin'] });
      const { tokens, sessions } = live().identity.dependencies;
      await sessions.revoke(await tokens.verify(user.token, 'access'));
      await expectAnswer(routes, user.token, 401, 2001);
    });

    if (withPermission.length > 0) {
      it("a signed-in user without the route's permission → 403 / 3000", async () => {
        const noRights = await createTestUser(live(), { roles: [] });
        const { answers, expected } = await routeSecurity(
          live().request,
          guarded(withPermission),
          noRights.token,
        );
        expect(answers.noPermission).toEqual(expected.noPermission);
      });
    }
  });
}
