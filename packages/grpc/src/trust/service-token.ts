import { jwtVerify, SignJWT } from 'jose';
import { ExpiringCache } from './expiring-cache.js';
import { parseServiceKeys, type HmacKey } from './keys.js';
import { CLOCK_TOLERANCE_SECONDS } from './principal-token.js';
import { TrustRejection } from './trust-rejection.js';

export const SERVICE_TOKEN_LIFETIME_SECONDS = 60;
const ISSUER = 'agent-platform-service';
const ALGORITHM = 'HS256';
const CACHE_ENTRIES = 1_000;

/**
 * A calling service's identity: a short-lived HS256 JWT, `sub` = the caller's service name,
 * `aud` = the callee, signed with the first SERVICE_AUTH_KEY entry; reused for half its life.
 */
export class ServiceTokenSigner {
  private readonly key: HmacKey;
  private readonly cache: ExpiringCache<string>;

  constructor(
    readonly caller: string,
    keys: string | readonly string[],
    private readonly lifetimeSeconds = SERVICE_TOKEN_LIFETIME_SECONDS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = parseServiceKeys(keys)[0]!;
    this.cache = new ExpiringCache(CACHE_ENTRIES, now);
  }

  async token(audience: string): Promise<string> {
    const cached = this.cache.get(audience);
    if (cached) return cached;
    const iat = Math.floor(this.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: this.key.kid })
      .setIssuer(ISSUER)
      .setSubject(this.caller)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds)
      .sign(this.key.key);
    this.cache.set(audience, token, (iat + this.lifetimeSeconds / 2) * 1000);
    return token;
  }
}

/** The callee's check of a service token: any SERVICE_AUTH_KEY entry, this audience, not expired. */
export class ServiceTokenVerifier {
  private readonly keys: Map<string, Uint8Array>;
  private readonly verified: ExpiringCache<string>;

  constructor(
    private readonly audience: string,
    keys: string | readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new Map(parseServiceKeys(keys).map((k) => [k.kid, k.key]));
    this.verified = new ExpiringCache(CACHE_ENTRIES, now);
  }

  /** Resolves to the calling service's name. */
  async verify(token: string | undefined): Promise<string> {
    if (!token) throw new TrustRejection('unauthenticated', 'internal method called without a service token');
    const cached = this.verified.get(token);
    if (cached !== undefined) return cached;
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          const key = header.kid ? this.keys.get(header.kid) : undefined;
          if (!key) throw new TrustRejection('unauthenticated', 'service token signed with an unknown key');
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: this.audience,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          maxTokenAge: SERVICE_TOKEN_LIFETIME_SECONDS * 2,
          currentDate: new Date(this.now()),
        },
      );
      const caller = payload.sub!;
      this.verified.set(token, caller, (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000);
      return caller;
    } catch (error) {
      if (error instanceof TrustRejection) throw error;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unreadable';
      throw new TrustRejection('unauthenticated', `bad service token (${reason})`);
    }
  }
}
