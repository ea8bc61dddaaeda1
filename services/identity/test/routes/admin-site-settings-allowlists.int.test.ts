// GET and PUT /admin/site-settings (gateway routes/identity-settings-routes.ts): the origin
// allowlists (model endpoints, workflow HTTP calls). The route's other tests and its security:
// admin-site-settings.int.test.ts; the webhook secrets: admin-site-settings-secrets.int.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_MODEL_ORIGINS } from '../../src/domain/settings/model-endpoint-allowlist.js';
import { createTestUser, type TestUser } from '../support/rbac-users.js';
import { useIdentityHarness } from '../support/suite.js';

const harness = useIdentityHarness();
let admin: TestUser;

beforeAll(async () => {
  admin = await createTestUser(harness, { roles: ['Admin'], name: 'allowadmin' });
});

/** PUT /admin/site-settings with one setting. */
const putSetting = (key: string) => (value: unknown) =>
  harness.request('PUT', '/admin/site-settings', { token: admin.token, json: { [key]: value } });

describe('model_endpoint_allowlist', () => {
  const put = putSetting('model_endpoint_allowlist');

  it('ships with the 20 official provider origins', async () => {
    const res = await harness.request('GET', '/admin/site-settings', { token: admin.token });
    expect(res.body.code).toBe(0);
    expect(res.body.data.model_endpoint_allowlist).toEqual(OFFICIAL_MODEL_ORIGINS);
    expect(new Set(res.body.data.model_endpoint_allowlist).size).toBe(20);
    expect(res.body.data.model_endpoint_allowlist).toContain('https://api.systemone.ai');
  });

  it('refuses entries that are not an origin, naming the entry', async () => {
    for (const bad of [
      'https://llm.internal/v1',
      'https://llm.internal?x=1',
      'https://user:pw@llm.internal',
      'ftp://llm.internal',
      'llm.internal',
      'https://llm.internal#frag',
    ]) {
      const res = await put(['https://ok.example', bad]);
      expect(res.status, bad).toBe(422);
      expect(res.body.code, bad).toBe(1001);
      expect(Object.keys(res.body.data.errors).join(','), bad).toContain('model_endpoint_allowlist');
    }
  });

  it('accepts origins with a port, IPv6 literals and a trailing slash', async () => {
    const res = await put(['http://10.0.0.5:8080', 'https://[fd00::1]:8443', 'https://llm.internal/']);
    expect(res.body.code).toBe(0);
    expect(res.body.data.model_endpoint_allowlist).toEqual([
      'http://10.0.0.5:8080',
      'https://[fd00::1]:8443',
      'https://llm.internal/',
    ]);
  });

  it('holds at most MODEL_ENDPOINT_ALLOWLIST_MAX_ENTRIES (default 200) entries', async () => {
    const origins = (count: number) => Array.from({ length: count }, (_, i) => `https://m${i}.example`);
    const full = await put(origins(200));
    expect(full.body.code).toBe(0);
    expect(full.body.data.model_endpoint_allowlist).toHaveLength(200);
    const over = await put(origins(201));
    expect(over.body.code).toBe(1001);
    expect(over.body.data.errors.model_endpoint_allowlist.join(' ')).toContain('at most 200');
  });
});

describe('workflow_http_allowlist', () => {
  const put = putSetting('workflow_http_allowlist');

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
