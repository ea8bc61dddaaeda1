// GET and POST /admin/teams/{team_id}/models, PUT and DELETE /admin/teams/{team_id}/models/{model_id}
// (gateway routes/models-grants-routes.ts): a team's model grants through the gateway (real
// identity for teams, real Postgres, Kafka): happy paths with their notification events, errors,
// bad input, the grant's outbox transaction and the security cases. GET /models (the picker that
// reads the grants): get-models.
import { randomUUID } from 'node:crypto';
import { Topics, type ConsumedMessage } from '@platform/kafka';
import { captureEvents, routeSecurity, type EventCapture } from '@platform/testing';
import type { GuardedRoute, IdentityUser } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrantsHarness, type GrantsHarness } from '../support/grants-harness.js';

let harness: GrantsHarness;
let events: EventCapture;
let admin: IdentityUser;
let owner: IdentityUser;
let teamAdmin: IdentityUser;
let member: IdentityUser;
let teamId: string;

beforeAll(async () => {
  harness = await startGrantsHarness();
  events = await captureEvents(harness.models.kafka, 'models-grants', [Topics.NOTIFICATION_EVENTS]);
  [admin, owner, teamAdmin, member] = await Promise.all([
    harness.createUser({ roles: ['Admin'], name: 'admin' }),
    harness.createUser({ name: 'owner' }),
    harness.createUser({ name: 'tadmin' }),
    harness.createUser({ name: 'member' }),
  ]);
  teamId = await harness.createTeam(owner, [teamAdmin], [member]);
}, 90_000);
afterAll(async () => {
  await events?.stop();
  await harness?.stop();
});

const grantPath = (team: string) => `/admin/teams/${team}/models`;
const grant = (team: string, json: Record<string, unknown>, token = admin.token) =>
  harness.request('POST', grantPath(team), { token, json });

const eventsOf = (type: string, modelId: string) =>
  events.messages.filter(
    (message: ConsumedMessage) =>
      message.eventType === type &&
      (message.value as { data: { model_id: string } }).data.model_id === modelId,
  );

async function waitForEvents(type: string, modelId: string, count: number) {
  await events.waitFor(() => eventsOf(type, modelId).length >= count, `${count} ${type} events`);
  await harness.models.grants.outbox.flush();
  return eventsOf(type, modelId);
}

describe('POST /admin/teams/{team_id}/models', () => {
  it('grants with quotas and usage, and notifies the OWNER and ADMINs (not MEMBERs)', async () => {
    const modelId = await harness.insertModel({ name: 'grant-me' });
    const created = await grant(teamId, { model_id: modelId, token_quota: 5000, request_quota: null });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      team_id: teamId,
      model_id: modelId,
      model: { id: modelId, name: 'grant-me', provider: 'openai', model_type: 'chat', is_enabled: true },
      is_enabled: true,
      token_quota: 5000,
      request_quota: null,
      usage: { tokens: 0, requests: 0, tokens_remaining: 5000, requests_remaining: null },
    });
    const sent = await waitForEvents('team.model_granted', modelId, 2);
    expect(sent.map((message) => message.key).sort()).toEqual([owner.id, teamAdmin.id].sort());
    expect(sent[0]!.value).toMatchObject({
      scope: 'user',
      team_id: teamId,
      source_service: 'models',
      data: { model_name: 'grant-me', actor_user_id: admin.id },
    });
  });

  it('answers 6102 for a second grant; of a concurrent burst exactly one wins and notifies', async () => {
    const modelId = await harness.insertModel();
    const burst = await Promise.all(Array.from({ length: 12 }, () => grant(teamId, { model_id: modelId })));
    const codes = burst.map((response) => response.body.code).sort();
    expect(codes.filter((code) => code === 0)).toHaveLength(1);
    expect(codes.filter((code) => code === 6102)).toHaveLength(11);
    expect(burst.find((response) => response.body.code === 6102)!.status).toBe(400);
    await waitForEvents('team.model_granted', modelId, 2);
    expect(eventsOf('team.model_granted', modelId)).toHaveLength(2);
  });

  it('answers 4004 for an unknown team and 6100 for an unknown model', async () => {
    const modelId = await harness.insertModel();
    const unknownTeam = await grant(randomUUID(), { model_id: modelId });
    expect([unknownTeam.status, unknownTeam.body.code]).toEqual([404, 4004]);
    const unknownModel = await grant(teamId, { model_id: randomUUID() });
    expect([unknownModel.status, unknownModel.body.code]).toEqual([404, 6100]);
  });

  it('refuses bad input with 422 / 1001 and callers without admin:model:update with 403 / 3000', async () => {
    const modelId = await harness.insertModel();
    for (const json of [
      { model_id: modelId, token_quota: 0 },
      { model_id: modelId, request_quota: -3 },
      { model_id: modelId, token_quota: 1.5 },
      { model_id: modelId, token_quota: '100' },
      { model_id: 'nope' },
      { model_id: modelId, extra: true },
      {},
    ]) {
      const response = await grant(teamId, json);
      expect([response.status, response.body.code], JSON.stringify(json)).toEqual([422, 1001]);
    }
    const badTeam = await harness.request('GET', '/admin/teams/not-a-uuid/models', { token: admin.token });
    expect(badTeam.body.code).toBe(1001);
    const forbidden = await grant(teamId, { model_id: modelId }, owner.token);
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 3000]);
    const anonymous = await harness.request('GET', grantPath(teamId));
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 2000]);
  });
});

describe('GET, PUT and DELETE /admin/teams/{team_id}/models/{model_id}', () => {
  it('lists grants with the current period usage, updates quotas and is_enabled, revokes with an event', async () => {
    const team = await harness.createTeam(owner, [teamAdmin]);
    const modelId = await harness.insertModel({ name: 'a-listed' });
    expect((await grant(team, { model_id: modelId, request_quota: 10 })).body.code).toBe(0);
    await harness.runtime.call('recordModelUsage', {
      team_id: team,
      model_id: modelId,
      tokens: 120,
      requests: 3,
      idempotency_key: randomUUID(),
    });
    const listed = await harness.request('GET', `${grantPath(team)}?page=1&page_size=5`, {
      token: admin.token,
    });
    expect(listed.body.data).toMatchObject({ total: 1, page: 1, page_size: 5 });
    expect(listed.body.data.items[0]).toMatchObject({
      model_id: modelId,
      request_quota: 10,
      usage: { tokens: 120, requests: 3, requests_remaining: 7, tokens_remaining: null },
    });

    const path = `${grantPath(team)}/${modelId}`;
    const updated = await harness.request('PUT', path, {
      token: admin.token,
      json: { is_enabled: false, token_quota: 100, request_quota: null },
    });
    expect(updated.body.data).toMatchObject({ is_enabled: false, token_quota: 100, request_quota: null });
    const partial = await harness.request('PUT', path, { token: admin.token, json: { is_enabled: true } });
    expect(partial.body.data).toMatchObject({ is_enabled: true, token_quota: 100, request_quota: null });
    await expect(
      harness.runtime.call('authorizeModelUse', { team_id: team, model_id: modelId }),
    ).rejects.toMatchObject({ code: 6103 });

    const revoked = await harness.request('DELETE', path, { token: admin.token });
    expect([revoked.status, revoked.body]).toMatchObject([200, { code: 0, data: null }]);
    const sent = await waitForEvents('team.model_revoked', modelId, 2);
    expect(sent.map((message) => message.key).sort()).toEqual([owner.id, teamAdmin.id].sort());
    await expect(
      harness.runtime.call('authorizeModelUse', { team_id: team, model_id: modelId }),
    ).rejects.toMatchObject({ code: 6104 });
    // Usage outlives the grant: a re-grant within the period does not reset the quota.
    await grant(team, { model_id: modelId, token_quota: 100 });
    await expect(
      harness.runtime.call('authorizeModelUse', { team_id: team, model_id: modelId }),
    ).rejects.toMatchObject({ code: 6103 });
  });

  it('answers 6101 for a model the team has no grant for, 4004 for an unknown team', async () => {
    const modelId = await harness.insertModel();
    for (const method of ['PUT', 'DELETE'] as const) {
      const json = method === 'PUT' ? { is_enabled: false } : undefined;
      const missing = await harness.request(method, `${grantPath(teamId)}/${modelId}`, {
        token: admin.token,
        json,
      });
      expect([missing.status, missing.body.code]).toEqual([404, 6101]);
      const unknownTeam = await harness.request(method, `${grantPath(randomUUID())}/${modelId}`, {
        token: admin.token,
        json,
      });
      expect([unknownTeam.status, unknownTeam.body.code]).toEqual([404, 4004]);
    }
    const list = await harness.request('GET', grantPath(randomUUID()), { token: admin.token });
    expect(list.body.code).toBe(4004);
  });

  it('writes the events in the grant transaction: in the outbox with the grant, none for a refused grant', async () => {
    const team = await harness.createTeam(owner, [teamAdmin]);
    const modelId = await harness.insertModel();
    await harness.models.grants.outbox.stop();
    try {
      expect((await grant(team, { model_id: modelId })).body.code).toBe(0);
      expect((await grant(team, { model_id: modelId })).body.code).toBe(6102);
      const { rows } = await harness.models.pool.query<{ type: string; key: string }>(
        `SELECT type, key FROM outbox WHERE value->'data'->>'model_id' = $1`,
        [modelId],
      );
      expect(rows.map((row) => row.type)).toEqual(['team.model_granted', 'team.model_granted']);
      expect(rows.map((row) => row.key).sort()).toEqual([owner.id, teamAdmin.id].sort());
    } finally {
      await harness.models.grants.outbox.start();
    }
    await waitForEvents('team.model_granted', modelId, 2);
    const { rows } = await harness.models.pool.query(
      `SELECT 1 FROM outbox WHERE value->'data'->>'model_id' = $1`,
      [modelId],
    );
    expect(rows).toHaveLength(0);
  });
});

describe('the /admin/teams/{team_id}/models routes: security', () => {
  it('no token → 401 / 2000; a malformed or forged token → 403 / 2003; without admin:model:update → 403 / 3000', async () => {
    const modelId = await harness.insertModel();
    const item = `${grantPath(teamId)}/${modelId}`;
    const routes: GuardedRoute[] = [
      ['GET', grantPath(teamId)],
      ['POST', grantPath(teamId), { model_id: modelId }],
      ['PUT', item, { is_enabled: false }],
      ['DELETE', item],
    ];
    // The team's OWNER holds no admin:model:update: owning the team is not enough. Nothing granted.
    const { answers, expected } = await routeSecurity(harness.request, routes, owner.token);
    expect(answers).toEqual(expected);
    const { rows } = await harness.models.pool.query('SELECT 1 FROM team_model_grants WHERE model_id = $1', [
      modelId,
    ]);
    expect(rows).toHaveLength(0);
  });
});
