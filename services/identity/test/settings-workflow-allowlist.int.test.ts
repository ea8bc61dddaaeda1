import { beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, type TestUser } from './support/rbac-users.js';
import { useIdentityHarness } from './support/suite.js';

const harness = useIdentityHarness();
let admin: TestUser;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'wfallowadmin' });
});

const put = (value: unknown) =>
  harness.request('PUT', '/admin/site-settings', {
    token: admin.token,
    json: { workflow_http_allowlist: value },
  });

describe('workflow_http_allowlist', () => {
  it('is empty by default and shown by GET /admin/site-settings', async () => {
    const res = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(res.body.code).toBe(0);
    expect(res.body.data.workflow_http_allowlist).toEqual([]);
  });

  it('takes origins, refuses anything else naming the entry', async () => {
    const ok = await put(['http://127.0.0.1:9000', 'https://hooks.internal/']);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.workflow_http_allowlist).toEqual([
      'http://127.0.0.1:9000',
      'https://hooks.internal/',
    ]);
    for (const bad of ['https://hooks.internal/path', 'hooks.internal', 'ftp://hooks.internal', 42]) {
      const res = await put([bad]);
      expect([res.status, res.body.code], String(bad)).toEqual([422, 1001]);
      expect(Object.keys(res.body.data.errors).join(','), String(bad)).toContain('workflow_http_allowlist');
    }
  });

  it('holds at most 200 entries', async () => {
    const origins = (count: number) => Array.from({ length: count }, (_, i) => `https://w${i}.example`);
    const full = await put(origins(200));
    expect(full.body.code).toBe(0);
    expect(full.body.data.workflow_http_allowlist).toHaveLength(200);
    const over = await put(origins(201));
    expect(over.body.code).toBe(1001);
    expect(over.body.data.errors.workflow_http_allowlist.join(' ')).toContain('at most 200');
    const reset = await put([]);
    expect(reset.body.data.workflow_http_allowlist).toEqual([]);
  });
});
