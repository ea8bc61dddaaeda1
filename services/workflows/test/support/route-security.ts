import { describe, expect, it } from 'vitest';
import type { WorkflowsHarness } from './harness.js';

/** One route as a security table names it: method, concrete path, and a body the edge would take. */
export type RouteCall = readonly [method: string, path: string, json?: unknown];

type Credential = { token?: string };

/** `METHOD path status code` for each route, so a failure names the route that let the call in. */
async function outcomes(harness: WorkflowsHarness, routes: readonly RouteCall[], credential: Credential) {
  return Promise.all(
    routes.map(async ([method, path, json]) => {
      const res = await harness.request(method, path, { ...credential, json });
      return `${method} ${path} ${res.status} ${res.body.code}`;
    }),
  );
}

const each = (routes: readonly RouteCall[], status: number, code: number) =>
  routes.map(([method, path]) => `${method} ${path} ${status} ${code}`);

/**
 * The security cases every route file of the gateway's workflow routes has: no token (401 / 2000),
 * a bearer token that cannot be decoded (403 / 2003, the spec's authentication mapping), and a signed-in user who holds none of the workflow
 * permissions (403 / 3000). `context` is read when the tests run, so paths may name ids made in the
 * file's `beforeAll`. Another user's resource (404, as for none) is each file's own test.
 */
export function describeRouteSecurity(
  title: string,
  context: () => { harness: WorkflowsHarness; routes: readonly RouteCall[] },
): void {
  describe(`${title}: security`, () => {
    it('no token → 401 / 2000', async () => {
      const { harness, routes } = context();
      expect(await outcomes(harness, routes, {})).toEqual(each(routes, 401, 2000));
    });

    it("a token that cannot be decoded → 403 / 2003 (the spec's mapping)", async () => {
      const { harness, routes } = context();
      expect(await outcomes(harness, routes, { token: 'not-a-jwt' })).toEqual(each(routes, 403, 2003));
    });

    it('a user without the workflow permissions → 403 / 3000', async () => {
      const { harness, routes } = context();
      const nobody = await harness.createUser({ roles: [] });
      expect(await outcomes(harness, routes, { token: nobody.token })).toEqual(each(routes, 403, 3000));
    });
  });
}
