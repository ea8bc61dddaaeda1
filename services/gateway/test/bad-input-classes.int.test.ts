import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The real identity + apikeys services behind the real gateway (the apikeys harness runs both).
import {
  startApiKeysHarness,
  type ApiKeysHarness,
  type TestUser,
} from '../../apikeys/test/support/harness.js';
import { routeTable } from '../src/index.js';

// Classes of bad input that used to reach a service (or express itself) and come back 500 / 1003:
// each is refused at the edge with an envelope, on every route it can reach.
let harness: ApiKeysHarness;
let admin: TestUser;

beforeAll(async () => {
  harness = await startApiKeysHarness();
  admin = await harness.createUser({ superuser: true, roles: ['Super Admin'] });
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

/** A request as the superuser (so every route gets past its permission check to validation). */
async function raw(method: string, path: string, body?: string, contentType = 'application/json') {
  return harness.request(method, path, {
    token: admin.token,
    raw: body === undefined ? undefined : { body, contentType },
  });
}

function expectFieldError(res: { status: number; body: { code: number; data: any } }, field: string) {
  expect([res.status, res.body.code]).toEqual([422, 1001]);
  expect(Object.keys(res.body.data.errors)).toContain(field);
}

describe('a NUL character or a lone surrogate in any string', () => {
  it('is refused 422 / 1001 naming the field in a query (search)', async () => {
    for (const path of ['/admin/users?search=a%00b', '/api-keys?search=a%00b']) {
      expectFieldError(await raw('GET', path), 'search');
    }
  });

  it('is refused 422 / 1001 naming the field in a JSON body (name), at any depth', async () => {
    expectFieldError(
      await harness.request('POST', '/teams', { token: admin.token, json: { name: 'a\u0000b' } }),
      'name',
    );
    const surrogate = await raw('POST', '/teams', '{"name":"x\\ud800y"}');
    expectFieldError(surrogate, 'name');
    const nested = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { model_endpoint_allowlist: ['https://ok.example', 'https://bad\u0000.example'] },
    });
    expectFieldError(nested, 'model_endpoint_allowlist.1');
  });

  it('is refused 422 / 1001 in a form body (username)', async () => {
    const body = new URLSearchParams({ username: 'adm\u0000in', password: 'whatever-1' }).toString();
    expectFieldError(
      await raw('POST', '/login/access-token', body, 'application/x-www-form-urlencoded'),
      'username',
    );
  });

  it('is refused 422 / 1001 in setting values (smtp_host) and keys', async () => {
    const value = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { smtp_host: 'mail\u0000.example.test' },
    });
    expectFieldError(value, 'smtp_host');
    const key = await raw('PUT', '/admin/site-settings', '{"webhook_headers":{"X-A\\u0000":"1"}}');
    expectFieldError(key, 'webhook_headers');
    const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(read.body.data.smtp_host).toBe('');
  });
});

const routesWithParams = routeTable.filter((route) => route.path.includes(':'));

describe('a path parameter that is not valid percent-encoding or encodes a lone surrogate', () => {
  it('covers every route of the table that has a path parameter', () => {
    expect(routesWithParams.length).toBeGreaterThanOrEqual(10);
  });

  for (const bad of ['%ED%A0%80', '%E0%A4%A', '%', '%zz']) {
    it.each(routesWithParams.map((route) => [route.method.toUpperCase(), route.path] as const))(
      `${bad}: %s %s answers 400 / 1002`,
      async (method, path) => {
        const url = path.replace(/:[A-Za-z0-9_]+/g, bad);
        const res = await raw(method, url, method === 'GET' || method === 'DELETE' ? undefined : '{}');
        expect([res.status, res.body.code], `${method} ${url}`).toEqual([400, 1002]);
      },
    );
  }
});

describe('a form body with too many fields', () => {
  it('is refused 413 / 1002 with the field limit on both form routes', async () => {
    const body = Array.from({ length: 10_000 }, (_, i) => `f${i}=x`).join('&');
    for (const path of ['/login/access-token', '/login/verify-totp']) {
      const res = await raw('POST', path, body, 'application/x-www-form-urlencoded');
      expect([res.status, res.body.code], path).toEqual([413, 1002]);
      expect(res.body.data).toMatchObject({ limit_fields: 100 });
    }
  });
});

describe('site settings are bounded', () => {
  it('refuses an oversized or malformed email_from_address with 422 / 1001 and keeps a valid one', async () => {
    for (const value of [
      `${'a'.repeat(10_000)}@example.test`,
      `${'a'.repeat(1_000_000)}@example.test`,
      'not-an-address',
    ]) {
      const res = await harness.request('PUT', '/admin/site-settings', {
        token: admin.token,
        json: { email_from_address: value },
      });
      expectFieldError(res, 'email_from_address');
    }
    const ok = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { email_from_address: 'noreply@example.test' },
    });
    expect([ok.status, ok.body.data.email_from_address]).toEqual([200, 'noreply@example.test']);
  });

  it('bounds every free-text setting and webhook_headers (count, names, line breaks)', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']));
    const res = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: {
        smtp_host: 'h'.repeat(256),
        email_from_name: 'n'.repeat(256),
        dingtalk_webhook_url: `https://oapi.dingtalk.com/robot/send?access_token=${'t'.repeat(2100)}`,
        webhook_headers: tooMany,
      },
    });
    expect([res.status, res.body.code]).toEqual([422, 1001]);
    expect(Object.keys(res.body.data.errors).sort()).toEqual([
      'dingtalk_webhook_url',
      'email_from_name',
      'smtp_host',
      'webhook_headers',
    ]);
    // The largest free text of all is bounded at both ends (gateway shape and identity).
    const template = await harness.request('PUT', '/admin/site-settings', {
      token: admin.token,
      json: { webhook_body_template: 'b'.repeat(65_537) },
    });
    expectFieldError(template, 'webhook_body_template');
    for (const headers of [{ 'X-Evil': 'a\r\nInjected: 1' }, { 'Bad Name': 'v' }]) {
      const bad = await harness.request('PUT', '/admin/site-settings', {
        token: admin.token,
        json: { webhook_headers: headers },
      });
      expectFieldError(bad, 'webhook_headers');
    }
  });
});
