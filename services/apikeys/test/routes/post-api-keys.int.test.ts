import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './support/harness.js';

let harness: ApiKeysHarness;
let user: TestUser;
let keyId: string;

beforeAll(async () => {
  harness = await startApiKeysHarness();
  user = await harness.createUser();
  const made = await harness.request('POST', '/api-keys', { token: user.token, json: { name: 'target' } });
  keyId = made.body.data.id;
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

const UUID = '11111111-1111-4111-8111-111111111111';
const past = new Date(Date.now() - 60_000).toISOString();

async function expect422(method: string, path: string, json: unknown, field: string) {
  const res = await harness.request(method, path, { token: user.token, json });
  expect([method, path, JSON.stringify(json), res.status, res.body.code]).toEqual([
    method,
    path,
    JSON.stringify(json),
    422,
    1001,
  ]);
  expect(Object.keys(res.body.data.errors)).toContain(field);
}

describe('POST /api-keys bad input', () => {
  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'k', scopes: ['admin'] }, 'scopes.0'],
    [{ name: 'k', scopes: [] }, 'scopes'],
    [{ name: 'k', scopes: 'chat' }, 'scopes'],
    [{ name: 'k', rate_limit: -1 }, 'rate_limit'],
    [{ name: 'k', rate_limit: 1.5 }, 'rate_limit'],
    [{ name: 'k', rate_limit: '10' }, 'rate_limit'],
    [{ name: 'k', rate_limit: 2 ** 31 }, 'rate_limit'],
    [{ name: 'k', expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'k', expires_at: '2030-01-01' }, 'expires_at'],
    [{ name: 'k', expires_at: past }, 'expires_at'],
    [{ name: 'k', agent_ids: ['not-a-uuid'] }, 'agent_ids.0'],
    [{ name: 'k', workflow_ids: UUID }, 'workflow_ids'],
    [{ name: 'k', agent_ids: Array.from({ length: 101 }, () => UUID) }, 'agent_ids'],
    [{ name: 'k', unknown_field: true }, '_'],
  ])('%j → 422 / 1001 on %s', async (json, field) => {
    await expect422('POST', '/api-keys', json, field);
  });

  it('refuses malformed JSON, non-objects and other content types', async () => {
    const malformed = await harness.request('POST', '/api-keys', {
      token: user.token,
      raw: { body: '{"name":', contentType: 'application/json' },
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 1002]);
    const array = await harness.request('POST', '/api-keys', { token: user.token, json: [{ name: 'k' }] });
    expect([array.status, array.body.code]).toEqual([422, 1001]);
    const form = await harness.request('POST', '/api-keys', {
      token: user.token,
      raw: { body: 'name=k', contentType: 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.body.code]).toEqual([415, 1002]);
  });
});

describe('PUT /api-keys/{key_id} bad input', () => {
  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ scopes: ['nope'] }, 'scopes.0'],
    [{ scopes: [] }, 'scopes'],
    [{ rate_limit: -5 }, 'rate_limit'],
    [{ is_active: 'yes' }, 'is_active'],
    [{ agent_ids: ['x'] }, 'agent_ids.0'],
    [{ workflow_ids: [1] }, 'workflow_ids.0'],
    [{ expires_at: '2031-01-01T00:00:00Z' }, '_'],
  ])('%j → 422 / 1001 on %s', async (json, field) => {
    await expect422('PUT', `/api-keys/${keyId}`, json, field);
  });
});

describe('path and query parameters', () => {
  it.each([
    ['GET', '/api-keys/not-a-uuid'],
    ['PUT', '/api-keys/not-a-uuid'],
    ['DELETE', '/api-keys/123'],
    ['POST', '/api-keys/zzz/activate'],
    ['POST', '/api-keys/zzz/deactivate'],
  ])('%s %s → 422 / 1001 on key_id', async (method, path) => {
    await expect422(method, path, method === 'PUT' ? { name: 'x' } : undefined, 'key_id');
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=1.5', 'page_size'],
    ['status=deleted', 'status.0'],
    ['status=active&status=bogus', 'status.1'],
    ['user_id=me', 'user_id.0'],
    [`search=${'s'.repeat(101)}`, 'search'],
  ])('GET /api-keys?%s → 422 / 1001 on %s', async (query, field) => {
    await expect422('GET', `/api-keys?${query}`, undefined, field);
  });
});
