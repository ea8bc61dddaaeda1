import { routeSecurity, type GuardedRoute } from '@platform/testing';
import { describe, expect, it } from 'vitest';
import type { WorkflowsHarness } from './harness.js';

/** One route as a security table names it: method, concrete path, and a body the edge would take. */
export type RouteCall = GuardedRoute;

/**
 * The security cases every route file of the gateway's workflow routes has, through the shared
 * table check (`routeSecurity` of `@platform/testing`): no token (401 / 2000), a bearer token that
 * cannot be decoded or is signed with another key (403 / 2003, the spec's authentication mapping),
 * and a signed-in user who holds none of the workflow permissions (403 / 3000). `context` is read
 * when the test runs, so paths may name ids made in the file's `beforeAll`. Another user's
 * resource (404, as for none) is each file's own test.
 */
export function describeRouteSecurity(
  title: string,
  context: () => { harness: WorkflowsHarness; routes: readonly RouteCall[] },
): void {
  describe(`${title}: security`, () => {
    it('no token → 401 / 2000; an undecodable or foreign token → 403 / 2003; no workflow permission → 403 / 3000', async () => {
      const { harness, routes } = context();
      const nobody = await harness.createUser({ roles: [] });
      const { answers, expected } = await routeSecurity(harness.request, routes, nobody.token);
      expect(answers).toEqual(expected);
    });
  });
}
