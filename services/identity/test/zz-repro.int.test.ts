import { describe, expect, it, beforeAll } from 'vitest';
import { createTestUser, type TestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';
const harness = useIdentityHarness();
let admin: TestUser;
beforeAll(async () => { admin = await createTestUser(harness, { roles: ['Admin'], name: 'reproadm' }); }, 60_000);
describe('repro', () => {
  it('big', async () => {
    const body: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) body[`unknown_${i}`] = i;
    const raw = JSON.stringify(body).slice(0, -1) + ',"__proto__":{"x":1},"constructor":{"prototype":1}}';
    const t = Date.now();
    const res = await harness.request('PUT', '/admin/site-settings', { token: admin.token, raw: { body: raw, contentType: 'application/json' } });
    console.log(Date.now() - t, res.status, JSON.stringify(res.body).slice(0, 500));
    for (const raw2 of ['{"__proto__":{"x":1}}', '{"constructor":{"prototype":1}}', '{"constructor":1}', '{"__proto__":1}', '{"toString":1}']) {
      const r = await harness.request('PUT', '/admin/site-settings', { token: admin.token, raw: { body: raw2, contentType: 'application/json' } });
      console.log(raw2, r.status, JSON.stringify(r.body).slice(0, 300));
    }
    expect(1).toBe(1);
  });
});
