import { TokenError, TokenService } from '@platform/auth';
import { describe, expect, it } from 'vitest';
import { VerifiedAccessTokens } from '../src/auth/verified-tokens.js';

const SECRET = 'verified-tokens-test-secret-0123456789-abcdefghij';

/** A TokenService that counts its verifications; `clock` stands in for jose's own clock. */
function countingTokens(clock: () => number = Date.now) {
  const tokens = new TokenService(SECRET);
  let verifications = 0;
  return {
    tokens,
    get verifications() {
      return verifications;
    },
    verifier: {
      verify: async (token: string, type: 'access') => {
        verifications += 1;
        const claims = await tokens.verify(token, type);
        if (claims.exp * 1000 <= clock()) throw new TokenError('expired');
        return claims;
      },
    },
  };
}

describe('VerifiedAccessTokens', () => {
  it('verifies a token once and reuses its claims until it expires', async () => {
    let now = Date.now();
    const counting = countingTokens(() => now);
    const cache = new VerifiedAccessTokens(counting.verifier, 10, () => now);
    const { token, claims } = await counting.tokens.issue('user-1', 'access', 60);
    expect(await cache.verify(token)).toEqual(claims);
    expect(await cache.verify(token)).toEqual(claims);
    expect(counting.verifications).toBe(1);
    // At `exp` (whole seconds, as jose counts) the cached answer is no longer used.
    now = claims.exp * 1000;
    await expect(cache.verify(token)).rejects.toBeInstanceOf(TokenError);
    expect(counting.verifications).toBe(2);
  });

  it('remembers no refusal: a bad or temp token is verified (and refused) every time', async () => {
    const counting = countingTokens();
    const cache = new VerifiedAccessTokens(counting.verifier);
    const temp = await counting.tokens.issue('user-1', 'totp_challenge', 60);
    for (const token of ['garbage', temp.token, 'garbage']) {
      await expect(cache.verify(token)).rejects.toBeInstanceOf(TokenError);
    }
    expect(counting.verifications).toBe(3);
  });

  it('keeps at most maxEntries tokens, dropping the oldest', async () => {
    const counting = countingTokens();
    const cache = new VerifiedAccessTokens(counting.verifier, 2);
    const issued = await Promise.all(['a', 'b', 'c'].map((id) => counting.tokens.issue(id, 'access', 60)));
    for (const { token } of issued) await cache.verify(token);
    await cache.verify(issued[2]!.token);
    expect(counting.verifications).toBe(3);
    await cache.verify(issued[0]!.token);
    expect(counting.verifications).toBe(4);
  });
});
