// GET /models, /models/providers and /models/types (gateway routes/models-grants-routes.ts and
// models-routes.ts): the routes open to every signed-in user, with their happy paths, bad input
// and security cases. GET /models is the builders' model picker (team ids from the principal).
// The /admin/models routes: post-admin-models, get-put-delete-admin-models and
// post-admin-models-test-and-discover; the team grants: admin-teams-models.
import { routeSecurity, type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from '../support/grants-harness.js';
import { readAllowlist } from '../support/models-admin.js';

let harness: GrantsHarness;
let admin: IdentityUser;
let plain: IdentityUser;
let builder: IdentityUser;
let outsider: IdentityUser;
let official: string[];
const ids: Record<string, string> = {};

beforeAll(async () => {
  harness = await startGrantsHarness();
  [admin, plain, builder, outsider] = await Promise.all([
    harness.createUser({ roles: ['Admin'], name: 'admin' }),
    harness.createUser({ name: 'mplain' }),
    harness.createUser({ name: 'builder' }),
    harness.createUser({ name: 'outsider' }),
  ]);
  official = await readAllowlist(harness, admin);
  const teamA = await harness.createTeam(builder);
  const teamB = await harness.createTeam(admin, [], [builder]);
  const other = await harness.createTeam(outsider);
  ids.chatA = await harness.insertModel({ name: 'b-chat', sort_order: 2, is_default: true });
  ids.chatB = await harness.insertModel({
    name: 'a-chat',
    sort_order: 2,
    context_length: null,
    capabilities: null,
  });
  ids.embed = await harness.insertModel({ name: 'z-embed', model_type: 'embedding', sort_order: 1 });
  ids.disabledGrant = await harness.insertModel({ name: 'disabled-grant' });
  ids.disabledModel = await harness.insertModel({ name: 'disabled-model', is_enabled: false });
  ids.otherTeam = await harness.insertModel({ name: 'other-team' });
  ids.ungranted = await harness.insertModel({ name: 'ungranted' });
  const grant = (team: string, modelId: string, json: Record<string, unknown> = {}) =>
    harness.request('POST', `/admin/teams/${team}/models`, {
      token: admin.token,
      json: { model_id: modelId, ...json },
    });
  for (const response of await Promise.all([
    grant(teamA, ids.chatA!),
    grant(teamB, ids.chatA!),
    grant(teamB, ids.chatB!),
    grant(teamA, ids.embed!),
    grant(teamA, ids.disabledGrant!, { is_enabled: false }),
    grant(teamA, ids.disabledModel!),
    grant(other, ids.otherTeam!),
  ])) {
    expect(response.body.code).toBe(0);
  }
}, 90_000);
afterAll(async () => {
  await harness?.stop();
});

describe('GET /models', () => {
  it("lists each enabled model granted (enabled grant) to the caller's teams once, in sort order then name", async () => {
    const response = await harness.request('GET', '/models', { token: builder.token });
    expect(response.body.code).toBe(0);
    expect(response.body.data).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(response.body.data.items.map((item: { id: string }) => item.id)).toEqual([
      ids.embed,
      ids.chatB,
      ids.chatA,
    ]);
  });

  it('shows exactly the picker fields, never endpoints, keys or prices', async () => {
    const response = await harness.request('GET', '/models?model_type=chat', { token: builder.token });
    const [first, second] = response.body.data.items;
    expect(Object.keys(second).sort()).toEqual(
      [
        'capabilities',
        'context_length',
        'id',
        'is_default',
        'model_type',
        'name',
        'provider',
        'provider_display_name',
      ].sort(),
    );
    expect(second).toEqual({
      id: ids.chatA,
      name: 'b-chat',
      provider: 'openai',
      provider_display_name: null,
      model_type: 'chat',
      capabilities: { streaming: true },
      context_length: 8192,
      is_default: true,
    });
    expect(first).toMatchObject({
      id: ids.chatB,
      capabilities: null,
      context_length: null,
      is_default: false,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/base_url|api_key|sealed/);
  });

  it('filters by model_type, pages, and refuses bad parameters with 422 / 1001', async () => {
    const embeddings = await harness.request('GET', '/models?model_type=embedding', { token: builder.token });
    expect(embeddings.body.data.items.map((item: { id: string }) => item.id)).toEqual([ids.embed]);
    const page2 = await harness.request('GET', '/models?page=2&page_size=2', { token: builder.token });
    expect(page2.body.data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.body.data.items.map((item: { id: string }) => item.id)).toEqual([ids.chatA]);
    for (const query of ['model_type=llm', 'page=0', 'page_size=101', 'page_size=x']) {
      const bad = await harness.request('GET', `/models?${query}`, { token: builder.token });
      expect([bad.status, bad.body.code], query).toEqual([422, 1001]);
    }
  });

  it('shows other users only their own teams, and needs a signed-in user', async () => {
    const other = await harness.request('GET', '/models', { token: outsider.token });
    expect(other.body.data.items.map((item: { id: string }) => item.id)).toEqual([ids.otherTeam]);
    const loner = await harness.createUser({ name: 'loner' });
    const none = await harness.request('GET', '/models', { token: loner.token });
    expect(none.body.data).toMatchObject({ items: [], total: 0 });
    const anonymous = await harness.request('GET', '/models');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
  });
});

describe('GET /models, /models/providers, /models/types: security', () => {
  const paths = ['/models', '/models/providers', '/models/types'];

  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003 (every signed-in user may read)', async () => {
    const { answers, expected } = await routeSecurity(
      harness.request,
      paths.map((path) => ['GET', path] as const),
    );
    expect(answers).toEqual(expected);
  });
});

const get = (path: string, token = admin.token) => harness.request('GET', path, { token });

describe('GET /models/providers and /models/types (the catalog)', () => {
  it('GET /models/providers: 23 providers with endpoints, embedding support and one decision provider', async () => {
    expect((await harness.request('GET', '/models/providers')).body.code).toBe(2000);
    const res = await get('/models/providers', plain.token);
    expect(res.body.code).toBe(0);
    const items = res.body.data.items as Record<string, unknown>[];
    expect(items).toHaveLength(23);
    expect(items.filter((p) => p.default_base_url === null).map((p) => p.id)).toEqual([
      'azure_openai',
      'midjourney',
      'custom',
    ]);
    expect(items.filter((p) => p.supports_embedding)).toHaveLength(15);
    expect(items.filter((p) => p.is_decision_provider).map((p) => p.id)).toEqual(['systemone']);
    expect(items.find((p) => p.id === 'elevenlabs')?.type_base_urls).toEqual({
      tts: 'https://api.elevenlabs.io/v1/text-to-speech',
      audio_generation: 'https://api.elevenlabs.io/v1/sound-generation',
    });
    expect(items.find((p) => p.id === 'openai')?.type_base_urls).toEqual({});
    // Every default endpoint's origin is in identity's shipped allowlist.
    for (const p of items)
      if (p.default_base_url) expect(official).toContain(new URL(p.default_base_url as string).origin);
  });

  it('GET /models/types: the 9 types', async () => {
    const res = await get('/models/types', plain.token);
    expect(res.body.data.items.map((t: { id: string }) => t.id)).toEqual([
      'chat',
      'embedding',
      'rerank',
      'tts',
      'stt',
      'audio_generation',
      'text_to_image',
      'text_to_video',
      'decision',
    ]);
  });
});
