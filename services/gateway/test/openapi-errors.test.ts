import { ErrorCode, getCatalogEntry } from '@platform/errors';
import { describe, expect, it } from 'vitest';
import { routeTable, type RouteDefinition } from '../src/index.js';
import { buildOpenApi } from '../src/openapi/build-openapi.js';

interface Response {
  description: string;
  content?: Record<string, { schema: { $ref?: string } }>;
}
interface Operation {
  responses: Record<string, Response>;
}

const doc = buildOpenApi(routeTable as RouteDefinition<unknown>[], 'test') as {
  paths: Record<string, Record<string, Operation>>;
};

function operationOf(route: RouteDefinition<unknown>): Operation {
  const path = `/api/v1${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  return doc.paths[path]![route.method]!;
}

function codesIn(response: Response | undefined): number[] {
  return [...(response?.description ?? '').matchAll(/\b(\d{4}) [A-Z_]+/g)].map((m) => Number(m[1]));
}

const cases = routeTable.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const);

describe('every operation of the OpenAPI document declares its error responses', () => {
  it.each(cases)('%s', (_name, route) => {
    const { responses } = operationOf(route as RouteDefinition<unknown>);
    const errors = Object.entries(responses).filter(([status]) => Number(status) >= 400 && status !== '431');
    // Each error response is the envelope and names the codes it can carry.
    for (const [status, response] of errors) {
      expect(response.content?.['application/json']?.schema.$ref, status).toBe(
        '#/components/schemas/ErrorEnvelope',
      );
      expect(codesIn(response).length, `${status} lists its codes`).toBeGreaterThan(0);
    }
    expect(codesIn(responses['400'])).toContain(ErrorCode.BAD_REQUEST);
    expect(codesIn(responses['500'])).toEqual([ErrorCode.INTERNAL_ERROR]);
    expect(responses['431']).toBeDefined();
    if (route.auth !== 'public') {
      expect(codesIn(responses['401'])).toEqual(expect.arrayContaining([2000, 2001, 2004]));
      expect(codesIn(responses['403'])).toContain(ErrorCode.INVALID_CREDENTIALS);
    }
    if (route.permission) expect(codesIn(responses['403'])).toContain(ErrorCode.PERMISSION_DENIED);
    if (route.params) expect(codesIn(responses['404']).length).toBeGreaterThan(0);
    if (route.params || route.query || route.body) {
      expect(codesIn(responses['422'])).toContain(ErrorCode.VALIDATION_ERROR);
    }
    if (route.body) {
      expect(codesIn(responses['413'])).toContain(ErrorCode.BAD_REQUEST);
      expect(codesIn(responses['415'])).toContain(ErrorCode.BAD_REQUEST);
    }
    // A route's own business codes appear under their status (the catalog's unless given).
    for (const error of route.errors ?? []) {
      const { code, status } =
        typeof error === 'object' ? error : { code: error, status: getCatalogEntry(error)!.httpStatus };
      expect(codesIn(responses[String(status)]), `${code} under ${status}`).toContain(code);
    }
  });

  it('lists business codes where the spec puts them', () => {
    const find = (method: string, path: string) =>
      operationOf(routeTable.find((r) => r.method === method && r.path === path) as RouteDefinition<unknown>);
    expect(codesIn(find('post', '/admin/roles').responses['404'])).toContain(ErrorCode.PERMISSION_NOT_FOUND);
    expect(codesIn(find('post', '/teams/:id/leave').responses['404'])).toContain(ErrorCode.NOT_TEAM_MEMBER);
    expect(codesIn(find('post', '/login/access-token').responses['400'])).toEqual(
      expect.arrayContaining([ErrorCode.INVALID_CREDENTIALS, ErrorCode.ACCOUNT_LOCKED]),
    );
  });
});
