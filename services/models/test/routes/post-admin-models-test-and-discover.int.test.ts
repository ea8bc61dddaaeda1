// POST /admin/models/{model_id}/test and POST /admin/models/discover (gateway
// routes/models-routes.ts): the two routes that call the upstream, against local fake provider
// servers, through the gateway and the outbound guard: happy paths, upstream errors, SSRF attempts
// refused, and the security cases. The other /admin/models routes: post-admin-models and
// get-put-delete-admin-models.
import { routeSecurity, startHttpReceiver, type HttpReceiver, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from '../support/grants-harness.js';
import { createModel, readAllowlist, setAllowlist, userWith } from '../support/models-admin.js';

let harness: GrantsHarness;
let admin: IdentityUser;
let provider: HttpReceiver;
/** Not in the allowlist: a private (loopback) address nobody registered. */
let stranger: HttpReceiver;
let official: string[];

beforeAll(async () => {
  harness = await startGrantsHarness();
  admin = await harness.createUser({ roles: ['Admin'], name: 'cadmin' });
  [provider, stranger] = await Promise.all([startHttpReceiver(), startHttpReceiver()]);
  official = await readAllowlist(harness, admin);
  await setAllowlist(harness, admin, [...official, provider.url, 'http://169.254.169.254']);
}, 90_000);
afterAll(async () => {
  await Promise.all([provider?.close(), stranger?.close()]);
  await harness?.stop();
});
beforeEach(() => {
  provider.requests.length = 0;
  stranger.requests.length = 0;
  delete harness.models.dependencies.resolve;
});

const testModel = (id: string, json: Record<string, unknown> = {}) =>
  harness.request('POST', `/admin/models/${id}/test`, { token: admin.token, json });
const discover = (json: Record<string, unknown>) =>
  harness.request('POST', '/admin/models/discover', { token: admin.token, json });
async function model(json: Record<string, unknown>): Promise<string> {
  const res = await createModel(harness, admin.token, json);
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}
const bodyOf = (index = 0) => JSON.parse(provider.requests[index]!.body.toString('utf8'));

describe('POST /admin/models/{id}/test', () => {
  it('chat: one 1-token completion with the stored key as a Bearer token', async () => {
    const id = await model({ base_url: `${provider.url}/v1`, api_key: 'sk-stored', model_id: 'gpt-x' });
    provider.script({ status: 200, body: { choices: [] } });
    // The body is optional.
    const res = await harness.request('POST', `/admin/models/${id}/test`, { token: admin.token });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ success: true });
    expect(res.body.data.latency_ms).toBeGreaterThan(0);
    expect(provider.requests).toHaveLength(1);
    const [sent] = provider.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(sent!.headers.authorization).toBe('Bearer sk-stored');
    expect(bodyOf()).toEqual({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'ping' }],
      max_tokens: 1,
    });
  });

  it('overrides are used once and never saved', async () => {
    const id = await model({ base_url: 'https://api.openai.com/v1', api_key: 'sk-stored' });
    const res = await testModel(id, { api_key: 'sk-override', base_url: `${provider.url}/v2/` });
    expect(res.body.data.success).toBe(true);
    expect(provider.requests[0]).toMatchObject({ path: '/v2/chat/completions' });
    expect(provider.requests[0]!.headers.authorization).toBe('Bearer sk-override');
    const stored = await harness.request('GET', `/admin/models/${id}`, { token: admin.token });
    expect(stored.body.data).toMatchObject({ base_url: 'https://api.openai.com/v1', api_key_set: true });
  });

  it('per type: embedding posts one input, other types list the models', async () => {
    const embedding = await model({ model_type: 'embedding', base_url: provider.url, model_id: 'emb-1' });
    expect((await testModel(embedding)).body.data.success).toBe(true);
    expect(provider.requests[0]).toMatchObject({ method: 'POST', path: '/embeddings' });
    expect(bodyOf()).toEqual({ model: 'emb-1', input: 'ping' });
    const tts = await model({ model_type: 'tts', base_url: `${provider.url}/v1` });
    expect((await testModel(tts)).body.data.success).toBe(true);
    expect(provider.requests[1]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it("an upstream error is success: false with the upstream's error text", async () => {
    const id = await model({ base_url: `${provider.url}/v1`, api_key: 'sk-bad' });
    provider.script({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-bad' } } });
    const res = await testModel(id);
    expect(res.body.code).toBe(0);
    expect(res.body.data.success).toBe(false);
    expect(res.body.data.message).toContain('Incorrect API key provided: sk-bad');
    expect(res.body.data.message).toContain('401');
    expect(typeof res.body.data.latency_ms).toBe('number');
    provider.script({ status: 500, body: 'upstream exploded' });
    expect((await testModel(id)).body.data).toMatchObject({
      success: false,
      message: 'HTTP 500: upstream exploded',
    });
  });

  it('a stored key sealed under another SECRET_KEY is a failed test, not a 5xx', async () => {
    const id = await model({ base_url: `${provider.url}/v1` });
    await harness.models.pool.query("UPDATE models SET api_key_sealed = 'v1:AAAA:BBBB:CCCC' WHERE id = $1", [
      id,
    ]);
    const res = await testModel(id);
    expect(res.body).toMatchObject({ code: 0, data: { success: false, latency_ms: null } });
    expect(res.body.data.message).toContain('SECRET_KEY');
    expect(provider.requests).toHaveLength(0);
  });

  it('a decision model runs one evaluation at <base_url>/v1/systemone with exactly one /v1', async () => {
    for (const base of [provider.url, `${provider.url}/v1`, `${provider.url}/v1/`]) {
      const id = await model({
        provider: 'systemone',
        model_type: 'decision',
        model_id: 'sys-latest',
        base_url: base,
        api_key: 'k1',
      });
      provider.requests.length = 0;
      expect((await testModel(id)).body.data.success, base).toBe(true);
      expect(
        provider.requests.map((r) => `${r.method} ${r.path}`),
        base,
      ).toEqual(['POST /v1/systemone']);
      expect(provider.requests[0]!.headers.authorization).toBe('Bearer k1');
      expect(bodyOf().model).toBe('sys-latest');
    }
  });
});

describe('POST /admin/models/discover', () => {
  it("returns the upstream's model ids from <base>/models with the key as Bearer", async () => {
    provider.script({ body: { data: [{ id: 'gpt-a' }, { id: 'gpt-b' }] } });
    const res = await discover({ provider: 'custom', base_url: `${provider.url}/v1`, api_key: 'sk-d' });
    expect(res.body).toMatchObject({ code: 0, data: { models: ['gpt-a', 'gpt-b'] } });
    expect(provider.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(provider.requests[0]!.headers.authorization).toBe('Bearer sk-d');
  });

  it('the decision provider uses /v1/models without a doubled /v1', async () => {
    for (const base of [provider.url, `${provider.url}/v1`]) {
      provider.requests.length = 0;
      provider.script({ body: { data: [{ id: 'sys-1' }, { id: 'sys-latest' }] } });
      const res = await discover({ provider: 'systemone', base_url: base });
      expect(res.body.data.models, base).toEqual(['sys-1', 'sys-latest']);
      expect(
        provider.requests.map((r) => r.path),
        base,
      ).toEqual(['/v1/models']);
    }
  });

  it('an upstream error → 1002 with its text; an unknown provider or a missing endpoint → 1001', async () => {
    provider.script({ status: 403, body: { error: 'key has no access' } });
    const res = await discover({ provider: 'custom', base_url: provider.url });
    expect(res.body.code).toBe(1002);
    expect(res.body.data.detail).toContain('key has no access');
    expect((await discover({ provider: 'nope' })).body.code).toBe(1001);
    expect((await discover({ provider: 'azure_openai' })).body.data.errors.base_url).toBeDefined();
  });
});

describe('SSRF defence (packages/outbound-http)', () => {
  const refused = (res: { body: { code: number; data: { error_key?: string; reason?: string } } }) => {
    expect(res.body.code).toBe(1001);
    expect(res.body.data.error_key).toBe('model_endpoint_not_allowed');
    return res.body.data.reason;
  };

  it('a private address nobody registered is refused (test override, discovery)', async () => {
    const id = await model({ base_url: `${provider.url}/v1` });
    expect(refused(await testModel(id, { base_url: `${stranger.url}/v1` }))).toBe('not_allowlisted');
    expect(refused(await testModel(id, { base_url: 'http://10.1.2.3/v1' }))).toBe('not_allowlisted');
    expect(refused(await discover({ provider: 'custom', base_url: 'http://[::1]:9/v1' }))).toBe(
      'not_allowlisted',
    );
    expect(stranger.requests).toHaveLength(0);
  });

  it('169.254.169.254 is refused even when registered, in any spelling', async () => {
    const id = await model({ base_url: `${provider.url}/v1` });
    for (const url of [
      'http://169.254.169.254/latest',
      'http://[::ffff:169.254.169.254]/',
      'http://0xa9fea9fe/',
    ]) {
      const reason = refused(await testModel(id, { base_url: url }));
      expect(['metadata_address', 'not_allowlisted'], url).toContain(reason);
    }
    expect(refused(await testModel(id, { base_url: 'http://169.254.169.254/latest' }))).toBe(
      'metadata_address',
    );
  });

  it('an official provider host that resolves to loopback is refused (DNS checked at connect time)', async () => {
    harness.models.dependencies.resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const id = await model({ provider: 'openai', api_key: 'sk-real' });
    expect(refused(await testModel(id))).toBe('blocked_address');
    expect(refused(await discover({ provider: 'deepseek' }))).toBe('blocked_address');
    // IPv6 loopback, and loopback hidden in an IPv4-mapped IPv6 address.
    for (const address of ['::1', '::ffff:127.0.0.1']) {
      harness.models.dependencies.resolve = async () => [{ address, family: 6 }];
      expect(refused(await testModel(id)), address).toBe('blocked_address');
    }
  });

  it('a host name an admin registered may resolve to a private address (that is what registering is for)', async () => {
    const port = new URL(provider.url).port;
    await setAllowlist(harness, admin, [...official, provider.url, `http://llm.internal.test:${port}`]);
    try {
      harness.models.dependencies.resolve = async (host) =>
        host === 'llm.internal.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
      const id = await model({ model_type: 'tts', base_url: `http://llm.internal.test:${port}/v1` });
      expect((await testModel(id)).body.data.success).toBe(true);
      expect(provider.requests[0]!.headers.host).toBe(`llm.internal.test:${port}`);
    } finally {
      await setAllowlist(harness, admin, [...official, provider.url, 'http://169.254.169.254']);
    }
  });

  it('a redirect to a private address is refused and never followed', async () => {
    const id = await model({ model_type: 'tts', base_url: `${provider.url}/v1` });
    provider.script({ status: 302, headers: { location: `${stranger.url}/v1/models` } });
    expect(refused(await testModel(id))).toBe('not_allowlisted');
    provider.script({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    expect(refused(await testModel(id))).toBe('metadata_address');
    expect(stranger.requests).toHaveLength(0);
    // A redirect inside the registered origin is followed.
    provider.script(
      { status: 302, headers: { location: '/v2/models' } },
      { status: 200, body: { data: [] } },
    );
    expect((await testModel(id)).body.data.success).toBe(true);
    expect(provider.requests.slice(-1)[0]!.path).toBe('/v2/models');
  });
});

describe('POST /admin/models/{model_id}/test and /admin/models/discover: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:model:create → 403 / 3000; no upstream call', async () => {
    const id = await model({ base_url: `${provider.url}/v1` });
    const updater = await userWith(harness, admin, ['admin:model:update']);
    const { answers, expected } = await routeSecurity(
      harness.request,
      [
        ['POST', `/admin/models/${id}/test`, {}],
        ['POST', '/admin/models/discover', { provider: 'custom', base_url: `${provider.url}/v1` }],
      ],
      updater.token,
    );
    expect(answers).toEqual(expected);
    expect(provider.requests).toHaveLength(0);
  });
});
