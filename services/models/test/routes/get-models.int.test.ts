import { type IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from './support/grants-harness.js';

// GET /models: the builders' model picker, through the gateway (team ids from the principal).
let harness: GrantsHarness;
let admin: IdentityUser;
let builder: IdentityUser;
let outsider: IdentityUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  harness = await startGrantsHarness();
  [admin, builder, outsider] = await Promise.all([
    harness.createUser({ roles: ['Admin'], name: 'admin' }),
    harness.createUser({ name: 'builder' }),
    harness.createUser({ name: 'outsider' }),
  ]);
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
