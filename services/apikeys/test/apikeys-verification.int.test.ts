import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';
import { startProbeGateway, type ProbeGateway } from './support/probe-gateway.js';

let harness: ApiKeysHarness;
let replicaA: ProbeGateway;
let replicaB: ProbeGateway;
let owner: TestUser;
const WF = '33333333-3333-4333-8333-333333333333';
const OTHER_WF = '44444444-4444-4444-8444-444444444444';
const AGENT = '55555555-5555-4555-8555-555555555555';

beforeAll(async () => {
  // The last_used_at flush runs only when a test calls it (the setting under test in this file).
  harness = await startApiKeysHarness({ LAST_USED_FLUSH_MS: String(2_000_000_000) });
  replicaA = await startProbeGateway(harness);
  replicaB = await startProbeGateway(harness);
  owner = await harness.createUser();
}, 60_000);
afterAll(async () => {
  await replicaA?.close();
  await replicaB?.close();
  await harness?.stop();
});

async function newKey(json: Record<string, unknown> = {}) {
  const res = await harness.request('POST', '/api-keys', {
    token: owner.token,
    json: { name: 'probe', scopes: ['workflow:execute', 'chat'], ...json },
  });
  expect(res.body.code).toBe(0);
  return res.body.data as { id: string; key: string; key_prefix: string };
}
const callWorkflow = (replica: ProbeGateway, key: string, workflow = WF) =>
  replica.request('GET', `/probe/workflows/${workflow}`, { token: key });
const outcome = (res: { status: number; body: { code: number; data: any } }) => [
  res.status,
  res.body.code,
  res.body.data?.error_key,
];

describe('an API key on an API-key route', () => {
  it('acts for its owner with its scopes and no global permissions', async () => {
    const key = await newKey();
    const res = await callWorkflow(replicaA, key.key);
    expect([res.status, res.body.code]).toEqual([200, 0]);
    expect(res.body.data).toMatchObject({
      user_id: owner.id,
      username: owner.username,
      auth_method: 'api_key',
      api_key_id: key.id,
      scopes: ['workflow:execute', 'chat'],
      permissions: [],
      is_superuser: false,
    });
    const jwt = await callWorkflow(replicaA, owner.token);
    expect(jwt.body.data).toMatchObject({ user_id: owner.id, auth_method: 'jwt' });
  });

  it('rejects malformed, unknown and wrong-secret keys with 401 / 2001', async () => {
    const key = await newKey();
    const wrongSecret = `${key.key.slice(0, -4)}AAAA`;
    const unknown = `sk-AAAAAAAAAAAA_${'A'.repeat(43)}`;
    for (const bad of ['sk-short', unknown, wrongSecret]) {
      expect(outcome(await callWorkflow(replicaA, bad))).toEqual([401, 2001, 'api_key_invalid']);
    }
  });

  it('checks the scope (403 / 3000 api_key_scope_missing) and the bindings', async () => {
    const chatOnly = await newKey({ scopes: ['chat'] });
    expect(outcome(await callWorkflow(replicaA, chatOnly.key))).toEqual([403, 3000, 'api_key_scope_missing']);
    const agentChat = await replicaA.request('GET', `/probe/agents/${AGENT}/chat`, { token: chatOnly.key });
    expect(agentChat.status).toBe(200);

    const bound = await newKey({ workflow_ids: [WF], agent_ids: [AGENT] });
    expect((await callWorkflow(replicaA, bound.key)).status).toBe(200);
    expect(outcome(await callWorkflow(replicaA, bound.key, OTHER_WF))).toEqual([
      403,
      3000,
      'api_key_no_workflow_access',
    ]);
    const otherAgent = await replicaA.request('GET', `/probe/agents/${OTHER_WF}/chat`, { token: bound.key });
    expect(outcome(otherAgent)).toEqual([403, 3000, 'api_key_no_agent_access']);
  });

  it('answers 401 / 2002 for an expired key, whatever is_active', async () => {
    const key = await newKey();
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200); // cached now
    await harness.apikeys.dependencies.pool.query(
      "UPDATE api_keys SET expires_at = now() - interval '1 second', is_active = false WHERE id = $1",
      [key.id],
    );
    // The cached answer carries no expiry; the revision is untouched by a direct SQL change, so
    // drop it as apikeys would on a change.
    await harness.apikeys.dependencies.revisions.invalidate(key.key_prefix);
    expect(outcome(await callWorkflow(replicaA, key.key))).toEqual([401, 2002, 'api_key_expired']);
  });

  it('stops a cached key when its expiry passes, without any change event', async () => {
    const key = await newKey({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200);
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200); // from the cache
    // An hour passes for the gateway's cache and for apikeys, with no change to the key.
    harness.clock.advance(3_600_000 + 1_000);
    try {
      expect(outcome(await callWorkflow(replicaA, key.key))).toEqual([401, 2002, 'api_key_expired']);
    } finally {
      harness.clock.reset();
    }
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200);
  });

  it('fails with 401 / 2001 once the owner is deactivated, on the next request through every replica', async () => {
    const admin = await harness.createUser({ roles: ['Admin'] });
    const user = await harness.createUser();
    const res = await harness.request('POST', '/api-keys', {
      token: user.token,
      json: { name: 'owner-off', scopes: ['workflow:execute'] },
    });
    const key = res.body.data.key as string;
    for (const replica of [replicaA, replicaB, replicaA, replicaB]) {
      expect((await callWorkflow(replica, key)).status).toBe(200); // key and owner cached
    }
    const off = await harness.request('POST', `/admin/users/${user.id}/deactivate`, { token: admin.token });
    expect(off.body.code).toBe(0);
    expect(outcome(await callWorkflow(replicaB, key))).toEqual([401, 2001, 'api_key_invalid']);
    expect(outcome(await callWorkflow(replicaA, key))).toEqual([401, 2001, 'api_key_invalid']);
  });
});

describe('changes apply to the very next request on every replica', () => {
  it('a deleted key fails immediately on the next request', async () => {
    const key = await newKey();
    for (const replica of [replicaA, replicaB, replicaA, replicaB]) {
      expect((await callWorkflow(replica, key.key)).status).toBe(200); // both caches warm
    }
    await harness.request('DELETE', `/api-keys/${key.id}`, { token: owner.token });
    expect(outcome(await callWorkflow(replicaA, key.key))).toEqual([401, 2001, 'api_key_invalid']);
    expect(outcome(await callWorkflow(replicaB, key.key))).toEqual([401, 2001, 'api_key_invalid']);
  });

  it('a scope change applies to the next request', async () => {
    const key = await newKey();
    for (const replica of [replicaA, replicaB])
      expect((await callWorkflow(replica, key.key)).status).toBe(200);
    await harness.request('PUT', `/api-keys/${key.id}`, { token: owner.token, json: { scopes: ['chat'] } });
    for (const replica of [replicaA, replicaB]) {
      expect(outcome(await callWorkflow(replica, key.key))).toEqual([403, 3000, 'api_key_scope_missing']);
    }
    await harness.request('PUT', `/api-keys/${key.id}`, {
      token: owner.token,
      json: { scopes: ['workflow:execute'], workflow_ids: [OTHER_WF] },
    });
    expect(outcome(await callWorkflow(replicaA, key.key))).toEqual([403, 3000, 'api_key_no_workflow_access']);
    expect((await callWorkflow(replicaB, key.key, OTHER_WF)).status).toBe(200);
  });

  it('deactivate and activate apply to the next request', async () => {
    const key = await newKey();
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200);
    await harness.request('POST', `/api-keys/${key.id}/deactivate`, { token: owner.token });
    expect(outcome(await callWorkflow(replicaA, key.key))).toEqual([401, 2001, 'api_key_invalid']);
    await harness.request('POST', `/api-keys/${key.id}/activate`, { token: owner.token });
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200);
  });
});

describe('last_used_at', () => {
  it('shows a use at once and writes it to Postgres on the coalesced flush', async () => {
    const key = await newKey();
    const before = Date.now();
    expect((await callWorkflow(replicaA, key.key)).status).toBe(200);
    const seen = await harness.request('GET', `/api-keys/${key.id}`, { token: owner.token });
    expect(Date.parse(seen.body.data.last_used_at)).toBeGreaterThanOrEqual(before - 5);
    const { pool, lastUsed } = harness.apikeys.dependencies;
    const stored = async () =>
      (await pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id])).rows[0].last_used_at;
    expect(await stored()).toBeNull(); // no periodic flush can have run (see beforeAll)
    expect(await lastUsed.flush()).toBeGreaterThanOrEqual(1);
    expect((await stored()).getTime()).toBeGreaterThanOrEqual(before - 5);
    const listed = await harness.request('GET', '/api-keys', { token: owner.token });
    const item = listed.body.data.items.find((k: { id: string }) => k.id === key.id);
    expect(item.last_used_at).toBe(seen.body.data.last_used_at);
  });
});
