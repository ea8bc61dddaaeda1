import { TokenService } from '@platform/auth';
import type { HttpResult } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteDefinition } from '../src/index.js';
import { startGatewayPlatform, type GatewayPlatform } from './support/platform.js';

// Every route of the gateway's real table, with its security cases (no token, bad tokens, a user
// without the route's permission, an API key on a JWT-only route, unknown sub-paths), against the
// real gateway, identity and apikeys. A route added to the table is covered the day it is added.

const ID = '00000000-0000-4000-8000-000000000000';
let platform: GatewayPlatform;
let noRights: { token: string };
let apiKey: string;
let otherSecretToken: string;

beforeAll(async () => {
  platform = await startGatewayPlatform();
  noRights = await platform.identity.createUser({ roles: [] });
  const owner = await platform.identity.createUser();
  const made = await platform.request('POST', '/api-keys', { token: owner.token, json: { name: 'routes' } });
  expect(made.body.code).toBe(0);
  apiKey = made.body.data.key;
  const forged = await new TokenService('another-secret-key-of-sufficient-length-0123').issue(
    owner.id,
    'access',
    600,
  );
  otherSecretToken = forged.token;
}, 120_000);
afterAll(async () => {
  await platform?.stop();
});

/** The route's path with every `:param` filled in (auth is checked before input validation). */
const concrete = (route: RouteDefinition<unknown>) => route.path.replace(/:[A-Za-z0-9_]+/g, ID);
const label = (route: RouteDefinition<unknown>) => `${route.method.toUpperCase()} ${route.path}`;
const outcome = (res: HttpResult) => [res.status, res.body.code];

const pattern = (route: RouteDefinition<unknown>) =>
  new RegExp(`^${route.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`);

/** A path below the route that no route of the table matches (`/roles/x` may be `/roles/:id`). */
function unknownBelow(route: RouteDefinition<unknown>): string {
  for (let depth = 1; depth <= 4; depth += 1) {
    const path = `${concrete(route)}${'/no-such-route'.repeat(depth)}`;
    if (!routes.some((other) => pattern(other).test(path))) return path;
  }
  throw new Error(`no unknown path below ${label(route)}`);
}

const routes = routeTable as RouteDefinition<unknown>[];
const guarded = routes.filter((route) => route.auth !== 'public');

function call(route: RouteDefinition<unknown>, path: string, token?: string): Promise<HttpResult> {
  const json = route.method === 'get' || route.method === 'delete' ? undefined : {};
  return platform.request(route.method.toUpperCase(), path, { token, json });
}

describe(`the route table (${routes.length} routes, ${guarded.length} guarded)`, () => {
  it('is the one the gateway serves, and not empty', async () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(guarded.length).toBeGreaterThan(0);
    // The served OpenAPI document is built from the same table: one operation per route.
    const served = (await platform.request('GET', '/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(served.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(operations).toBe(routes.length);
  });

  it('every guarded route: no token → 401 / 2000', async () => {
    for (const route of guarded) {
      expect([label(route), ...outcome(await call(route, concrete(route)))]).toEqual([
        label(route),
        401,
        2000,
      ]);
    }
  });

  it('every guarded route: a malformed token and a token signed with another key → 403 / 2003', async () => {
    for (const route of guarded) {
      for (const token of ['not-a-jwt', otherSecretToken]) {
        const res = await call(route, concrete(route), token);
        expect([label(route), ...outcome(res), res.body.data?.error_key]).toEqual([
          label(route),
          403,
          2003,
          'token_invalid',
        ]);
      }
    }
  });

  it('every route with a permission: a valid user without it → 403 / 3000', async () => {
    const withPermission = guarded.filter((route) => route.permission);
    expect(withPermission.length).toBeGreaterThan(0);
    for (const route of withPermission) {
      const res = await call(route, concrete(route), noRights.token);
      expect([label(route), ...outcome(res)]).toEqual([label(route), 403, 3000]);
    }
  });

  it('every JWT-only route: an API key → 403 / 3000 api_key_not_allowed', async () => {
    const jwtOnly = guarded.filter((route) => route.auth === 'user');
    expect(jwtOnly.length).toBeGreaterThan(0);
    for (const route of jwtOnly) {
      const res = await call(route, concrete(route), apiKey);
      expect([label(route), ...outcome(res), res.body.data?.error_key]).toEqual([
        label(route),
        403,
        3000,
        'api_key_not_allowed',
      ]);
    }
  });

  it('every route: an unknown sub-path under it → 404 / 4000', async () => {
    for (const route of routes) {
      const res = await call(route, unknownBelow(route));
      expect([label(route), ...outcome(res)]).toEqual([label(route), 404, 4000]);
    }
  });
});
