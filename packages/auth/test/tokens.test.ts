import { describe, expect, it } from 'vitest';
import { SessionRegistry, TokenService, type SessionStore } from '../src/index.js';

const SECRET = 'a-development-secret-key-of-32-chars!!';

describe('TokenService', () => {
  const tokens = new TokenService(SECRET);

  it('issues a token it verifies, with the claims it was given', async () => {
    const { token, claims } = await tokens.issue('user-1', 'access', 3600);
    await expect(tokens.verify(token, 'access')).resolves.toEqual(claims);
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('refuses a token of another type, another key, garbage or an expired one', async () => {
    const { token } = await tokens.issue('user-1', 'totp_challenge', 300);
    await expect(tokens.verify(token, 'access')).rejects.toMatchObject({ reason: 'invalid' });
    await expect(new TokenService(SECRET + 'x').verify(token, 'totp_challenge')).rejects.toMatchObject({
      reason: 'invalid',
    });
    await expect(tokens.verify('not-a-jwt', 'access')).rejects.toMatchObject({ reason: 'malformed' });
    const expired = await tokens.issue('user-1', 'access', -10);
    await expect(tokens.verify(expired.token, 'access')).rejects.toMatchObject({ reason: 'expired' });
  });
});

class MapStore implements SessionStore {
  readonly values = new Map<string, string>();
  async mget(...keys: string[]) {
    return keys.map((k) => this.values.get(k) ?? null);
  }
  async set(key: string, value: string) {
    this.values.set(key, value);
    return 'OK';
  }
}

describe('SessionRegistry', () => {
  it('tracks revocation and single-session supersession', async () => {
    const tokens = new TokenService(SECRET);
    const registry = new SessionRegistry(new MapStore());
    const first = await tokens.issue('u', 'access', 60);
    const second = await tokens.issue('u', 'access', 60);
    expect(await registry.check(first.claims)).toBe('valid');
    await registry.makeCurrent(second.claims);
    expect(await registry.check(first.claims)).toBe('superseded');
    expect(await registry.check(second.claims)).toBe('valid');
    await registry.revoke(second.claims);
    expect(await registry.check(second.claims)).toBe('revoked');
  });
});
