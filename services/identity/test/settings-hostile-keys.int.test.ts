import { beforeAll, describe, expect, it } from 'vitest';
import { updateSiteSettings } from '../src/domain/settings/update-site-settings.js';
import { createTestUser, type TestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';

/**
 * `PUT /admin/site-settings` with keys a client controls (issue 20): a huge list of unknown names
 * and the names that mean something to a JavaScript object (`__proto__`, `constructor`,
 * `prototype`) are refused with 1001 naming the field, fast, and never answer 500 or slip through.
 */
const harness = useIdentityHarness();
let admin: TestUser;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'hostilekeys' });
}, 60_000);

/** A JSON body as a client writes it: `__proto__` stays an ordinary key in the text. */
const put = (body: string) =>
  harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    raw: { body, contentType: 'application/json' },
  });

async function readSettings(): Promise<Record<string, unknown>> {
  const read = await harness.request('GET', '/admin/site-settings', { token: admin.token });
  return read.body.data;
}

describe('PUT /admin/site-settings with hostile keys', () => {
  it('10,000 unknown names plus __proto__ and constructor: 422 / 1001 at once, nothing written', async () => {
    const unknown = Array.from({ length: 10_000 }, (_, i) => `"unknown_${i}":${i}`).join(',');
    const body = `{${unknown},"__proto__":{"max_login_attempts":1},"constructor":{"prototype":1}}`;
    const started = Date.now();
    const res = await put(body);
    expect([res.status, res.body.code]).toEqual([422, 1001]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(Object.keys(res.body.data.errors)).toContain('_');
    expect((await readSettings()).max_login_attempts).toBe(5);
  });

  it('__proto__, constructor and prototype are refused by name, alone or beside a real setting', async () => {
    const bodies = [
      ['{"__proto__":{"max_login_attempts":1}}', '__proto__'],
      ['{"__proto__":1}', '__proto__'],
      ['{"constructor":{"prototype":1}}', 'constructor'],
      ['{"constructor":1}', 'constructor'],
      ['{"prototype":{"x":"y"}}', 'prototype'],
      ['{"single_session":true,"__proto__":{"single_session":false}}', '__proto__'],
    ] as const;
    const results = await Promise.all(bodies.map(([body]) => put(body)));
    results.forEach((res, i) => {
      const [body, field] = bodies[i]!;
      expect([res.status, res.body.code], body).toEqual([422, 1001]);
      expect(Object.keys(res.body.data.errors), body).toContain(field);
    });
    expect((await readSettings()).single_session).toBe(false);
  });

  it('the service itself refuses reserved, unknown and too many names before any per-key work', async () => {
    const deps = harness.identity.dependencies;
    const update = (changes: Record<string, unknown>) =>
      updateSiteSettings(deps, { changes, actorUserId: admin.id, ip: '', userAgent: '', requestId: '' }).then(
        () => undefined,
        (err: { code?: number; data?: { errors?: Record<string, string[]> } }) => err,
      );
    const withOwnProto = JSON.parse('{"__proto__":{"single_session":true},"constructor":1}') as Record<
      string,
      unknown
    >;
    const reserved = await update(withOwnProto);
    expect(reserved?.code).toBe(1001);
    expect(Object.keys(reserved?.data?.errors ?? {}).sort()).toEqual(['__proto__', 'constructor']);

    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`unknown_${i}`, i]));
    const tooMany = await update(many);
    expect(tooMany?.code).toBe(1001);
    expect(Object.keys(tooMany?.data?.errors ?? {})).toEqual(['_']);
    expect((await readSettings()).single_session).toBe(false);
  });
});
