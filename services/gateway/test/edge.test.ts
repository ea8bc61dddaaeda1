import { BusinessError, ErrorCode } from '@platform/errors';
import { createServiceClient } from '@platform/grpc';
import { conformanceV1 } from '@platform/contracts';
import { createLogger } from '@platform/logger';
import { listen, type RunningHttp } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGatewayApp, defineRoute, healthRoutes, pagingQuery, repeatable } from '../src/index.js';

const logger = createLogger('gateway-test', 'silent');

// A closed port: nothing listens there, so calls fail as UNAVAILABLE.
const unreachable = createServiceClient(
  conformanceV1.ProbeServiceService,
  'platform.conformance.v1.ProbeService',
  '127.0.0.1:1',
  {
    defaultTimeoutMs: 1_000,
  },
);

const testRoutes = [
  ...healthRoutes,
  defineRoute<unknown, undefined, { status?: string[]; page: number; page_size: number }, undefined, unknown>(
    {
      method: 'get',
      path: '/things',
      summary: 'List things',
      tags: ['test'],
      auth: 'public',
      query: z.object({ status: repeatable(z.enum(['active', 'inactive'])).optional(), ...pagingQuery }),
      invoke: async ({ query }) => query,
    },
  ),
  defineRoute<unknown, undefined, undefined, { name: string; level: string; count: number }, unknown>({
    method: 'post',
    path: '/things',
    summary: 'Create a thing',
    tags: ['test'],
    auth: 'public',
    body: z.object({
      name: z.string().min(1).max(10),
      level: z.enum(['low', 'high']),
      count: z.number().int(),
    }),
    invoke: async ({ body }) => body,
  }),
  defineRoute<unknown, undefined, undefined, { username: string; password: string }, unknown>({
    method: 'post',
    path: '/form-login',
    summary: 'Form body',
    tags: ['test'],
    auth: 'public',
    bodyType: 'form',
    body: z.object({ username: z.string().min(1), password: z.string().min(1) }),
    invoke: async ({ body }) => ({ username: body.username }),
  }),
  defineRoute({
    method: 'get',
    path: '/boom',
    summary: 'Fails unexpectedly',
    tags: ['test'],
    auth: 'public',
    invoke: async () => {
      throw new Error('secret internal detail');
    },
  }),
  defineRoute({
    method: 'get',
    path: '/locked',
    summary: 'Business error with data',
    tags: ['test'],
    auth: 'public',
    invoke: async () => {
      throw new BusinessError(ErrorCode.ACCOUNT_LOCKED, { data: { lockout_seconds: 900 } });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/down',
    summary: 'Calls a service that is down',
    tags: ['test'],
    auth: 'public',
    invoke: async () => unreachable.call('echo', { text: 'x', delay_ms: 0, include_principal: false }),
  }),
];

let http: RunningHttp;

beforeAll(async () => {
  http = await listen(
    createGatewayApp({ logger, routes: testRoutes, clients: {}, bodyLimitBytes: 64 * 1024 }),
  );
});
afterAll(async () => {
  unreachable.close();
  await http.close();
});

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${http.baseUrl}${path}`, init);
  const text = await response.text();
  let body: { code: number; data: unknown; msg: string };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
  return { status: response.status, body, headers: response.headers };
}

const json = (body: unknown, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...extra },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('health', () => {
  it('answers healthy in the envelope, localized', async () => {
    const en = await call('/api/v1/health');
    expect(en).toMatchObject({ status: 200, body: { code: 0, data: { status: 'healthy' }, msg: 'Success' } });
    const zh = await call('/api/v1/health', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.body.msg).toBe('成功');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await call('/api/v1/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await call('/api/v1/health', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unknown routes', () => {
  it.each(['/api/v1/nope', '/nope', '/api/v2/health', '/'])('%s is an enveloped 404 / 4000', async (path) => {
    const { status, body } = await call(path);
    expect(status).toBe(404);
    expect(body).toMatchObject({
      code: 4000,
      data: { error_key: 'route_not_found' },
      msg: 'Route not found',
    });
  });

  it('a known path with another method is 405 / 1002 with Allow', async () => {
    const { status, body, headers } = await call('/api/v1/health', { method: 'DELETE' });
    expect(status).toBe(405);
    expect(body.code).toBe(1002);
    expect(headers.get('allow')).toBe('GET');
  });
});

describe('request bodies', () => {
  it('malformed JSON is 400 / 1002', async () => {
    const { status, body } = await call('/api/v1/things', json('{"name": "x",'));
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 1002, data: { error_key: 'malformed_json' } });
  });

  it('a wrong content type is 415 / 1002', async () => {
    const { status, body } = await call('/api/v1/things', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(status).toBe(415);
    expect(body.code).toBe(1002);
  });

  it('an oversized body is 413 / 1002 with the limit', async () => {
    const { status, body } = await call('/api/v1/things', json({ name: 'x'.repeat(70 * 1024) }));
    expect(status).toBe(413);
    expect(body).toMatchObject({
      code: 1002,
      data: { limit_bytes: 64 * 1024, error_key: 'payload_too_large' },
    });
  });

  it('a JSON array or scalar where an object belongs is 422 / 1001', async () => {
    const { status, body } = await call('/api/v1/things', json('[1,2]'));
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 1001, data: { errors: { body: ['must be a JSON object'] } } });
  });

  it('shape errors are 422 / 1001 with every field listed', async () => {
    const { status, body } = await call(
      '/api/v1/things',
      json({ name: 'x'.repeat(11), level: 'medium', count: 'three' }),
    );
    expect(status).toBe(422);
    expect(body.code).toBe(1001);
    const errors = (body.data as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(errors).sort()).toEqual(['count', 'level', 'name']);
    const missing = await call('/api/v1/things', json({}));
    expect(Object.keys((missing.body.data as { errors: object }).errors).sort()).toEqual([
      'count',
      'level',
      'name',
    ]);
  });

  it('a valid body reaches the route', async () => {
    const { status, body } = await call('/api/v1/things', json({ name: 'ok', level: 'low', count: 2 }));
    expect(status).toBe(200);
    expect(body).toEqual({ code: 0, data: { name: 'ok', level: 'low', count: 2 }, msg: 'Success' });
  });

  it('form routes take form bodies and answer JSON with 422 / 1001', async () => {
    const form = await call('/api/v1/form-login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=alice&password=pw',
    });
    expect(form.body).toMatchObject({ code: 0, data: { username: 'alice' } });
    const asJson = await call('/api/v1/form-login', json({ username: 'alice', password: 'pw' }));
    expect(asJson.status).toBe(422);
    expect(asJson.body.code).toBe(1001);
    const missing = await call('/api/v1/form-login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=alice',
    });
    expect(missing.status).toBe(422);
    expect((missing.body.data as { errors: object }).errors).toHaveProperty('password');
  });
});

describe('query parameters', () => {
  it('accepts repeatable parameters and applies paging defaults', async () => {
    const { body } = await call('/api/v1/things?status=active&status=inactive');
    expect(body.data).toEqual({ status: ['active', 'inactive'], page: 1, page_size: 20 });
    const single = await call('/api/v1/things?status=active&page=2&page_size=100');
    expect(single.body.data).toEqual({ status: ['active'], page: 2, page_size: 100 });
  });

  it.each(['page_size=0', 'page_size=101', 'page=0', 'page=abc', 'page_size=1.5', 'status=deleted'])(
    '%s is a validation error, never clamped',
    async (query) => {
      const { status, body } = await call(`/api/v1/things?${query}`);
      expect(status).toBe(422);
      expect(body.code).toBe(1001);
    },
  );
});

describe('failures', () => {
  it('an unexpected error is 500 / 1003 without internals', async () => {
    const { status, body } = await call('/api/v1/boom');
    expect(status).toBe(500);
    expect(body).toEqual({ code: 1003, data: null, msg: 'Internal server error' });
    expect(JSON.stringify(body)).not.toContain('secret internal detail');
  });

  it('a business error keeps its code, status and data, with msg interpolated', async () => {
    const { status, body } = await call('/api/v1/locked', { headers: { 'accept-language': 'zh' } });
    expect(status).toBe(400);
    expect(body.code).toBe(5300);
    expect(body.data).toEqual({ lockout_seconds: 900 });
    expect(body.msg).toContain('900');
  });

  it('a service that is down is 503 / 1003', async () => {
    const { status, body } = await call('/api/v1/down');
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: 1003, data: { error_key: 'service_unavailable' } });
  });
});

describe('OpenAPI', () => {
  it('documents every route of the table with its schemas', async () => {
    const response = await fetch(`${http.baseUrl}/api/v1/openapi.json`);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/v1/boom',
        '/api/v1/down',
        '/api/v1/form-login',
        '/api/v1/health',
        '/api/v1/health/ready',
        '/api/v1/locked',
        '/api/v1/things',
      ].sort(),
    );
    const create = doc.paths['/api/v1/things']!.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(create.requestBody.content['application/json']!.schema.required.sort()).toEqual([
      'count',
      'level',
      'name',
    ]);
    const login = doc.paths['/api/v1/form-login']!.post as { requestBody: { content: object } };
    expect(Object.keys(login.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
  });

  it('serves browsable docs', async () => {
    const response = await fetch(`${http.baseUrl}/api/v1/docs/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger-ui');
  });
});
