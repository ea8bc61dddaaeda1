import { randomUUID } from 'node:crypto';
import { TokenService } from '@platform/auth';
import type { Requester } from './requester.js';

/** A guarded route as a route file's security table names it: method, a concrete path, a body. */
export type GuardedRoute = readonly [method: string, path: string, json?: unknown];

/** What the routes of a table answered each kind of caller, one `METHOD path → status / code` a route. */
export interface SecurityAnswers {
  /** No Authorization header: 401 / 2000. */
  anonymous: string[];
  /** A token that is no JWT, and one signed with another key: 403 / 2003 each (docs/gateway.md). */
  malformed: string[];
  forged: string[];
  /** A signed-in user without the route's permission: 403 / 3000 (only where one was given). */
  noPermission?: string[];
}

const answerOf = (route: GuardedRoute, status: number, code: number) =>
  `${route[0]} ${route[1]} → ${status} / ${code}`;

async function answersTo(request: Requester, routes: readonly GuardedRoute[], token?: string) {
  const answers: string[] = [];
  for (const route of routes) {
    const [method, path, json] = route;
    const res = await request(method, path, { token, json });
    answers.push(answerOf(route, res.status, res.body.code));
  }
  return answers;
}

/**
 * Sends every route of the table as each kind of caller a route must refuse, and says what the
 * gateway answers them (docs/gateway.md): `expect(answers).toEqual(expected)`, so a failure names
 * the route and the caller. `noPermissionToken`: a signed-in user who holds none of the routes'
 * permissions, for routes that need one (403 / 3000); left out for routes open to every user.
 */
export async function routeSecurity(
  request: Requester,
  routes: readonly GuardedRoute[],
  noPermissionToken?: string,
): Promise<{ answers: SecurityAnswers; expected: SecurityAnswers }> {
  // Well formed and unexpired, but not signed with the platform's SECRET_KEY.
  const forged = await new TokenService(`another-secret-key-${randomUUID()}`).issue(
    randomUUID(),
    'access',
    600,
  );
  const every = (status: number, code: number) => routes.map((route) => answerOf(route, status, code));
  const answers: SecurityAnswers = {
    anonymous: await answersTo(request, routes),
    malformed: await answersTo(request, routes, 'not-a-jwt'),
    forged: await answersTo(request, routes, forged.token),
  };
  const expected: SecurityAnswers = {
    anonymous: every(401, 2000),
    malformed: every(403, 2003),
    forged: every(403, 2003),
  };
  if (noPermissionToken !== undefined) {
    answers.noPermission = await answersTo(request, routes, noPermissionToken);
    expected.noPermission = every(403, 3000);
  }
  return { answers, expected };
}
