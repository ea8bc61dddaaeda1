// POST /admin/models (gateway routes/models-routes.ts): the happy path, the field rules and bad
// input, and the security cases; through the gateway with real identity (allowlist, roles) and
// real Postgres. Reading, updating and deleting a model: get-put-delete-admin-models; the
// connectivity test and discovery: post-admin-models-test-and-discover; the catalog: get-models.
import { SecretBox } from '@platform/crypto';
import { routeSecurity, stackEnv, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_KEYS_PURPOSE } from '../../src/models-service.js';
import { startGrantsHarness, type GrantsHarness } from '../support/grants-harness.js';
import { createModel, readAllowlist, setAllowlist, userWith } from '../support/models-admin.js';

let harness: GrantsHarness;
let admin: IdentityUser;
let plain: IdentityUser;
let official: string[];

beforeAll(async () => {
  harness = await startGrantsHarness();
  [admin, plain] = await Promise.all([
    harness.createUser({ roles: ['Admin'], name: 'madmin' }),
    harness.createUser({ name: 'mplain' }),
  ]);
  official = await readAllowlist(harness, admin);
}, 90_000);
afterAll(async () => {
  await harness?.stop();
});

const get = (path: string, token = admin.token) => harness.request('GET', path, { token });
const put = (id: string, json: Record<string, unknown>, token = admin.token) =>
  harness.request('PUT', `/admin/models/${id}`, { token, json });

describe('POST /admin/models', () => {
  it('creates with defaults, seals the API key and never returns it', async () => {
    const res = await createModel(harness, admin.token, { name: 'defaults', api_key: 'sk-secret-123' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'defaults',
      provider: 'openai',
      model_id: 'gpt-4o-mini',
      model_type: 'chat',
      provider_display_name: null,
      base_url: null,
      api_key: null,
      api_key_set: true,
      context_length: null,
      max_output_tokens: null,
      input_price: null,
      output_price: null,
      default_params: null,
      capabilities: null,
      is_enabled: true,
      is_default: false,
      sort_order: 0,
    });
    const { rows } = await harness.models.pool.query('SELECT api_key_sealed FROM models WHERE id = $1', [
      res.body.data.id,
    ]);
    expect(rows[0].api_key_sealed).not.toContain('sk-secret');
    expect(new SecretBox(stackEnv.secretKey, MODEL_KEYS_PURPOSE).decrypt(rows[0].api_key_sealed)).toBe(
      'sk-secret-123',
    );
    expect(() => new SecretBox(stackEnv.secretKey).decrypt(rows[0].api_key_sealed)).toThrow();
    const read = await get(`/admin/models/${res.body.data.id}`);
    expect(read.body.data).toMatchObject({ api_key: null, api_key_set: true });
    expect(JSON.stringify(read.body)).not.toContain('sk-secret');
    // null keeps the key, "" clears it.
    expect((await put(res.body.data.id, { api_key: null })).body.data.api_key_set).toBe(true);
    expect((await put(res.body.data.id, { api_key: '' })).body.data.api_key_set).toBe(false);
  });

  it('returns prices exactly (up to 6 decimals) and refuses negatives and a 7th decimal', async () => {
    const res = await createModel(harness, admin.token, {
      input_price: 0.000001,
      output_price: 123456789.123456,
      default_params: { temperature: 0.2 },
      capabilities: { vision: true, function_calling: false },
      context_length: 128000,
      max_output_tokens: 1,
    });
    expect(res.body.data).toMatchObject({ input_price: 0.000001, output_price: 123456789.123456 });
    expect(res.body.data.default_params).toEqual({ temperature: 0.2 });
    for (const bad of [{ input_price: -0.01 }, { output_price: 0.0000001 }, { input_price: 1.1234567 }]) {
      const refused = await createModel(harness, admin.token, bad);
      expect(refused.body.code, JSON.stringify(bad)).toBe(1001);
      expect(Object.keys(refused.body.data.errors)).toEqual(Object.keys(bad));
    }
  });

  it('field rules: lengths, ranges, enums, unknown fields → 1001 naming the field, never 5xx', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ model_id: 'y'.repeat(101) }, 'model_id'],
      [{ provider: 'nope' }, 'provider'],
      [{ model_type: 'video' }, 'model_type'],
      [{ base_url: `https://api.openai.com/${'a'.repeat(500)}` }, 'base_url'],
      [{ base_url: 'not a url' }, 'base_url'],
      [{ context_length: 0 }, 'context_length'],
      [{ max_output_tokens: 1.5 }, 'max_output_tokens'],
      [{ default_params: [1] }, 'default_params'],
      [{ sort_order: 'first' }, 'sort_order'],
      [{ extra: 1 }, ''],
    ];
    for (const [json, field] of cases) {
      const res = await createModel(harness, admin.token, json);
      expect(res.status, JSON.stringify(json)).toBeLessThan(500);
      expect(res.body.code, JSON.stringify(json)).toBe(1001);
      if (field) expect(Object.keys(res.body.data.errors), JSON.stringify(json)).toContain(field);
    }
    const name100 = await createModel(harness, admin.token, { name: 'n'.repeat(100) });
    expect(name100.body.code).toBe(0);
  });

  it('decision only with the decision provider; embedding only with a supported provider', async () => {
    const wrong = await createModel(harness, admin.token, { provider: 'openai', model_type: 'decision' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 1001, data: { error_key: 'model_type_not_supported' } });
    const right = await createModel(harness, admin.token, {
      provider: 'systemone',
      model_type: 'decision',
      model_id: 'sys-latest',
    });
    expect(right.body.code).toBe(0);
    // The reverse is not checked at configuration time.
    expect(
      (await createModel(harness, admin.token, { provider: 'systemone', model_type: 'chat' })).body.code,
    ).toBe(0);
    for (const provider of ['anthropic', 'systemone', 'stability', 'cohere']) {
      const res = await createModel(harness, admin.token, { provider, model_type: 'embedding' });
      expect(res.body.data?.error_key, provider).toBe('embedding_provider_not_supported');
    }
    for (const provider of ['openai', 'custom', 'gemini', 'azure_openai'])
      expect(
        (await createModel(harness, admin.token, { provider, model_type: 'embedding' })).body.code,
        provider,
      ).toBe(0);
    // The merged model is checked on update too.
    const updated = await put(right.body.data.id, { provider: 'deepseek' });
    expect(updated.body.data.error_key).toBe('model_type_not_supported');
  });

  it('a base_url outside the allowlist is model_endpoint_not_allowed (full origin, ports strict)', async () => {
    const allowed = await createModel(harness, admin.token, { base_url: 'https://api.openai.com/v1?x=1' });
    expect(allowed.body.code).toBe(0);
    expect(allowed.body.data.base_url).toBe('https://api.openai.com/v1?x=1');
    for (const url of [
      'https://api.openai.com:8443/v1',
      'http://api.openai.com/v1',
      'http://10.0.0.5:8080/v1',
      'http://169.254.169.254/latest',
    ]) {
      const res = await createModel(harness, admin.token, { base_url: url });
      expect(res.body.data?.error_key, url).toBe('model_endpoint_not_allowed');
    }
    await setAllowlist(harness, admin, [...official, 'http://10.0.0.5:8080', 'http://169.254.169.254']);
    try {
      expect(
        (await createModel(harness, admin.token, { base_url: 'http://10.0.0.5:8080/v1' })).body.code,
      ).toBe(0);
      expect(
        (await createModel(harness, admin.token, { base_url: 'http://10.0.0.5/v1' })).body.data.error_key,
      ).toBe('model_endpoint_not_allowed');
      // Metadata addresses stay refused even when registered.
      expect(
        (await createModel(harness, admin.token, { base_url: 'http://169.254.169.254/' })).body.data
          .error_key,
      ).toBe('model_endpoint_not_allowed');
    } finally {
      await setAllowlist(harness, admin, official);
    }
  });
});

describe('POST /admin/models: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:model:create → 403 / 3000', async () => {
    const count = async () =>
      (await harness.models.pool.query('SELECT count(*)::int AS n FROM models')).rows[0].n;
    const before = await count();
    const body = { name: 'refused', provider: 'openai', model_id: 'gpt-4o-mini', model_type: 'chat' };
    const { answers, expected } = await routeSecurity(
      harness.request,
      [['POST', '/admin/models', body]],
      plain.token,
    );
    expect(answers).toEqual(expected);
    // Holding another admin:model:* code is not enough; nothing was created.
    const updater = await userWith(harness, admin, ['admin:model:update']);
    expect((await createModel(harness, updater.token, {})).body.code).toBe(3000);
    expect(await count()).toBe(before);
  });
});
