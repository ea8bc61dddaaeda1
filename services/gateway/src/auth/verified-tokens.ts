import type { TokenClaims, TokenService } from '@platform/auth';
import { LRUCache } from 'lru-cache';

/** How many verified access tokens a replica remembers (about 300 bytes each). */
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Access tokens whose signature this replica already checked, by their exact text, until they
 * expire: a JWT is immutable, so the same string proves the same claims again and only its expiry
 * can change the answer (jose refuses once `exp <= now` in whole seconds; so does a hit here). It
 * saves the HMAC and the JSON decoding on every request of a session. Revocation, ended sessions,
 * the user's revision and the user's state are NOT cached here: the authenticator still checks
 * them in Redis (and identity) on every request. Only successful verifications are remembered.
 * `lru-cache` bounds the entries (least recently used go first); the expiry is the token's own
 * `exp`, checked here in whole seconds as jose does.
 */
export class VerifiedAccessTokens {
  private readonly entries: LRUCache<string, Readonly<TokenClaims>>;

  constructor(
    private readonly tokens: Pick<TokenService, 'verify'>,
    maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  /** The token's claims, or the TokenError `TokenService.verify` raises. */
  async verify(token: string): Promise<Readonly<TokenClaims>> {
    const cached = this.entries.get(token);
    if (cached) {
      if (cached.exp > Math.floor(this.now() / 1000)) return cached;
      this.entries.delete(token);
    }
    const claims = Object.freeze(await this.tokens.verify(token, 'access'));
    this.entries.set(token, claims);
    return claims;
  }
}
