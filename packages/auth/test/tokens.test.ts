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
  async del(...keys: string[]) {
    for (const k of keys) this.values.delete(k);
    return keys.length;
  }
  /** Emulates the registry's only script: three reads, then the revision (created when missing). */
  async eval(_script: string, _numKeys: number, ...args: (string | number)[]) {
    const [k1, k2, k3, k4, fresh] = args.map(String);
    if (!this.values.has(k4!)) this.values.set(k4!, fresh!);
    return [k1, k2, k3, k4].map((k) => this.values.get(k!) ?? '');
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

describe('SessionRegistry: ending sessions and principal revisions', () => {
  it('ends every token issued up to the change except the kept one; later tokens are valid', async () => {
    const tokens = new TokenService(SECRET);
    const registry = new SessionRegistry(new MapStore());
    const old = await tokens.issue('u', 'access', 60);
    const kept = await tokens.issue('u', 'access', 60);
    const otherUser = await tokens.issue('v', 'access', 60);
    // The cut at the newest of these tokens (the registry's clock seam), and a token from after it.
    const cut = Math.max(old.claims.issuedAtMs, kept.claims.issuedAtMs, otherUser.claims.issuedAtMs);
    await registry.endSessionsBefore('u', kept.claims.jti, cut);
    let later = await tokens.issue('u', 'access', 60);
    while (later.claims.issuedAtMs <= cut) later = await tokens.issue('u', 'access', 60);
    expect(await registry.check(old.claims)).toBe('ended');
    expect(await registry.check(kept.claims)).toBe('valid');
    expect(await registry.check(otherUser.claims)).toBe('valid');
    expect(await registry.check(later.claims)).toBe('valid');
    expect((await registry.checkWithRevision(old.claims, 'r1')).state).toBe('ended');
  });

  it('keeps a revision until the principal is invalidated, then hands out a new one', async () => {
    const tokens = new TokenService(SECRET);
    const registry = new SessionRegistry(new MapStore());
    const { claims } = await tokens.issue('u', 'access', 60);
    expect(await registry.checkWithRevision(claims, 'r1')).toEqual({
      state: 'valid',
      principalRevision: 'r1',
    });
    expect((await registry.checkWithRevision(claims, 'r2')).principalRevision).toBe('r1');
    await registry.invalidatePrincipal('u');
    expect((await registry.checkWithRevision(claims, 'r3')).principalRevision).toBe('r3');
  });

  it('carries the issue time in milliseconds', async () => {
    const tokens = new TokenService(SECRET);
    const before = Date.now();
    const { token } = await tokens.issue('u', 'access', 60);
    const claims = await tokens.verify(token, 'access');
    expect(claims.issuedAtMs).toBeGreaterThanOrEqual(before);
    expect(claims.issuedAtMs).toBeLessThanOrEqual(Date.now());
  });
});
