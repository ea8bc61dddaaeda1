import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

/**
 * Issue 7: every key change leaves an audit row (actor, time, client ip, user agent, request id),
 * written in the change's transaction, never holding the secret or its hash; global admins read the
 * trail at `GET /admin/api-keys/audit`.
 */
let harness: ApiKeysHarness;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  harness = await startApiKeysHarness();
  owner = await harness.createUser();
  other = await harness.createUser();
  admin = await harness.createUser({ superuser: true });
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

const origin = (ip: string, step: string) => ({
  'x-forwarded-for': ip,
  'user-agent': `audit-test/${step}`,
  'x-request-id': `audit-${step}-${Date.now()}`,
});

describe('API key audit trail', () => {
  it('records create, update, deactivate, activate and delete with actor and origin, never the secret', async () => {
    const steps: { action: string; actor: string; headers: Record<string, string> }[] = [];
    const call = async (action: string, user: TestUser, method: string, path: string, json?: unknown) => {
      const headers = origin(`203.0.113.${steps.length + 1}`, action.replace('api_key.', ''));
      const res = await harness.request(method, path, { token: user.token, json, headers });
      expect(res.body.code, `${action}: ${JSON.stringify(res.body)}`).toBe(0);
      steps.push({ action, actor: user.id, headers });
      return res;
    };
    const created = await call('api_key.create', owner, 'POST', '/api-keys', {
      name: 'audited',
      scopes: ['chat'],
    });
    const id: string = created.body.data.id;
    const secret: string = created.body.data.key;
    const { pool } = harness.apikeys.dependencies;
    const hash = (await pool.query('SELECT key_hash FROM api_keys WHERE id = $1', [id])).rows[0].key_hash;
    await call('api_key.update', owner, 'PUT', `/api-keys/${id}`, { name: 'renamed', rate_limit: 5 });
    await call('api_key.deactivate', owner, 'POST', `/api-keys/${id}/deactivate`);
    await call('api_key.activate', owner, 'POST', `/api-keys/${id}/activate`);
    // Someone else's delete finds nothing (404) and leaves no audit row: the row shares its transaction.
    const foreign = await harness.request('DELETE', `/api-keys/${id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    // A global admin deletes the owner's key: the actor is the admin, the owner stays recorded.
    await call('api_key.delete', admin, 'DELETE', `/api-keys/${id}`);

    const { rows } = await pool.query(`SELECT * FROM api_key_audit WHERE key_id = $1 ORDER BY id`, [id]);
    expect(rows.map((r) => r.action)).toEqual(steps.map((s) => s.action));
    rows.forEach((row, i) => {
      const step = steps[i]!;
      expect(row).toMatchObject({
        key_owner_id: owner.id,
        key_prefix: created.body.data.key_prefix,
        actor_user_id: step.actor,
        ip: step.headers['x-forwarded-for'],
        user_agent: step.headers['user-agent'],
        request_id: step.headers['x-request-id'],
      });
      expect(row.created_at).toBeInstanceOf(Date);
    });
    expect(rows[0].details).toMatchObject({ name: 'audited', scopes: ['chat'] });
    expect(rows[1].details).toEqual({ name: 'renamed', rate_limit: 5 });
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(-20));
    expect(stored).not.toContain(hash);
    const columns = await pool.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'api_key_audit'`,
    );
    expect(columns.rows.map((c) => c.column_name).filter((n: string) => /hash|secret|key$/.test(n))).toEqual(
      [],
    );

    // Global admins read it through the gateway, newest first; others get 403.
    const listed = await harness.request('GET', `/admin/api-keys/audit?key_id=${id}&page_size=2`, {
      token: admin.token,
    });
    expect(listed.body.code).toBe(0);
    expect(listed.body.data).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(listed.body.data.items.map((e: { action: string }) => e.action)).toEqual([
      'api_key.delete',
      'api_key.activate',
    ]);
    expect(listed.body.data.items[0]).toMatchObject({
      actor_user_id: admin.id,
      key_owner_id: owner.id,
      ip: steps[4]!.headers['x-forwarded-for'],
    });
    expect(JSON.stringify(listed.body)).not.toContain(hash);
    const byOwner = await harness.request('GET', '/admin/api-keys/audit', { token: owner.token });
    expect(byOwner.status).toBe(403);
  });
});
