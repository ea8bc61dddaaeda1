import { describe, expect, it } from 'vitest';
import { runsVisibleTo } from '../../src/domain/runs/run-visibility.js';

// The rule in isolation; through the gateway: run-api-key-access.int.test.ts.
const KEY = '7b0c8c57-1f53-4b8e-9f0e-3d2c1b0a9f8e';

describe('runsVisibleTo', () => {
  it('gives a user (JWT) every run, whatever his permissions', () => {
    expect(runsVisibleTo({ auth_method: 'jwt' })).toEqual({ startedByKey: null });
  });

  it('gives a key only the runs it started while its owner lacks workflow:read', () => {
    for (const owner_permissions of [undefined, [], ['workflow:execute']]) {
      expect(runsVisibleTo({ auth_method: 'api_key', api_key_id: KEY, owner_permissions })).toEqual({
        startedByKey: KEY,
      });
    }
  });

  it('gives a key its owner’s view (every run) when the owner holds workflow:read', () => {
    const caller = { auth_method: 'api_key' as const, api_key_id: KEY, owner_permissions: ['workflow:read'] };
    expect(runsVisibleTo(caller)).toEqual({ startedByKey: null });
  });

  it('matches no run for a key principal without a key id', () => {
    expect(runsVisibleTo({ auth_method: 'api_key' }).startedByKey).toMatch(/^0{8}-/);
  });
});
