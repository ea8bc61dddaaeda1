import { afterAll, beforeAll, expect } from 'vitest';
import { startApiKeysHarness, type ApiKeysHarness, type TestUser } from './harness.js';

/** The sorted field names of an API object (to compare a response's shape with the spec's). */
export const sorted = (o: object) => Object.keys(o).sort();

/** The fields of GET /api-keys/{key_id} (spec), sorted. */
export const DETAIL = [
  'agents',
  'created_at',
  'expires_at',
  'id',
  'is_active',
  'key_prefix',
  'last_used_at',
  'name',
  'rate_limit',
  'scopes',
  'updated_at',
  'user_id',
  'workflows',
];
/** The fields of a key's state (create, activate, deactivate answers), sorted. */
export const STATE = DETAIL.filter((f) => !['agents', 'last_used_at', 'workflows'].includes(f));

/**
 * Starts an apikeys harness before a route file's tests (`ready` hands it over and sets up the
 * file's callers) and stops it after them.
 */
export function useApiKeysHarness(ready: (harness: ApiKeysHarness) => Promise<void>): void {
  let started: ApiKeysHarness | undefined;
  beforeAll(async () => {
    started = await startApiKeysHarness();
    await ready(started);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
}

/**
 * The requests the route files share, on the file's harness: `create(caller, json)` is
 * POST /api-keys; `expect422(method, path, json, field)` sends as the file's `user` and checks for
 * 422 / 1001 naming `field` among the errors.
 */
export function keyRequests(live: () => { harness: ApiKeysHarness; user: TestUser }) {
  const harness = () => live().harness;
  const user = () => live().user;
  return {
    create: (caller: TestUser, json: unknown) =>
      harness().request('POST', '/api-keys', { token: caller.token, json }),
    async expect422(method: string, path: string, json: unknown, field: string): Promise<void> {
      const res = await harness().request(method, path, { token: user().token, json });
      expect([method, path, JSON.stringify(json), res.status, res.body.code]).toEqual([
        method,
        path,
        JSON.stringify(json),
        422,
        1001,
      ]);
      expect(Object.keys(res.body.data.errors)).toContain(field);
    },
  };
}
