import type { TokenClaims, TokenService } from '@platform/auth';

/** How many verified access tokens a replica remembers (about 300 bytes each). */
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Access tokens whose signature this replica already checked, by their exact text, until they
 * expire: a JWT is immutable, so the same string proves the same claims again and only its expiry
 * can change the answer (jose refuses once `exp <= now` in whole seconds; so does a hit here). It
 * saves the HMAC and the JSON decoding on every request of a session. Revocation, ended sessions,
 * the user's revision and the user's state are NOT cached here: the authenticator still checks
 * them in Redis (and identity) on every request. Only successful verifications are remembered.
 */
export class VerifiedAccessTokens {
  private readonly entries = new Map<string, Readonly<TokenClaims>>();

  constructor(
    private readonly tokens: Pick<TokenService, 'verify'>,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token's claims, or the TokenError `TokenService.verify` raises. */
  async verify(token: string): Promise<Readonly<TokenClaims>> {
    const cached = this.entries.get(token);
    if (cached) {
      if (cached.exp > Math.floor(this.now() / 1000)) return cached;
      this.entries.delete(token);
    }
    const claims = Object.freeze(await this.tokens.verify(token, 'access'));
    if (this.entries.size >= this.maxEntries) {
      // The oldest entry goes: Map keeps insertion order.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, claims);
    return claims;
  }
}
