import type { KeyObject } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { ExpiringCache } from './expiring-cache.js';
import { parseCallerKeys, parsePrivateSigningKey, type Ed25519PrivateKey } from './keys.js';
import { CLOCK_TOLERANCE_SECONDS } from './principal-token.js';
import { TrustRejection } from './trust-rejection.js';

export const SERVICE_TOKEN_LIFETIME_SECONDS = 60;
const ISSUER = 'agent-platform-service';
const ALGORITHM = 'EdDSA';
const CACHE_ENTRIES = 1_000;

/**
 * A calling service's identity: a short-lived EdDSA JWT, `sub` = the caller's service name,
 * `aud` = the callee, signed with the caller's own private key (SERVICE_SIGNING_PRIVATE_KEY);
 * reused for half its life, so a caller signs once per callee every 30 s.
 */
export class ServiceTokenSigner {
  private readonly key: Ed25519PrivateKey;
  private readonly cache: ExpiringCache<string>;

  constructor(
    readonly caller: string,
    privateKeyPem: string,
    private readonly lifetimeSeconds = SERVICE_TOKEN_LIFETIME_SECONDS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = parsePrivateSigningKey(privateKeyPem);
    this.cache = new ExpiringCache(CACHE_ENTRIES, now);
  }

  /** The token for `audience` while it is reused, without signing (the hot path). */
  cached(audience: string): string | undefined {
    return this.cache.get(audience);
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

/** The caller a token claims to be (`sub`), read before its signature is checked. */
function claimedCaller(token: string): string {
  try {
    const { sub } = decodeJwt(token);
    if (typeof sub === 'string' && sub.length > 0) return sub;
  } catch {
    // an unreadable token is refused below like one without a subject
  }
  throw new TrustRejection('unauthenticated', 'service token without a readable caller (sub)');
}

/**
 * The callee's check of a service token: signed by a key of the very service it names (`sub`),
 * for this audience, not expired. A service holding only its own private key can therefore sign
 * only as itself. A verified token is cached until it expires (one EdDSA verification per token).
 */
export class ServiceTokenVerifier {
  private readonly callers: Map<string, Map<string, KeyObject>>;
  private readonly verified: ExpiringCache<string>;

  constructor(
    private readonly audience: string,
    callerKeys: Readonly<Record<string, string | readonly string[]>>,
    private readonly now: () => number = Date.now,
  ) {
    this.callers = parseCallerKeys(callerKeys);
    this.verified = new ExpiringCache(CACHE_ENTRIES, now);
  }

  /** Resolves to the calling service's name. */
  async verify(token: string | undefined): Promise<string> {
    if (!token) throw new TrustRejection('unauthenticated', 'internal method called without a service token');
    const cached = this.verified.get(token);
    if (cached !== undefined) return cached;
    const caller = claimedCaller(token);
    const keys = this.callers.get(caller);
    if (!keys)
      throw new TrustRejection(
        'unauthenticated',
        `service token from ${caller}, whose key is not trusted here`,
      );
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          const key = header.kid ? keys.get(header.kid) : undefined;
          if (!key)
            throw new TrustRejection('unauthenticated', `service token not signed by a key of ${caller}`);
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: this.audience,
          subject: caller,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          maxTokenAge: SERVICE_TOKEN_LIFETIME_SECONDS * 2,
          currentDate: new Date(this.now()),
        },
      );
      this.verified.set(token, caller, (payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000);
      return caller;
    } catch (error) {
      if (error instanceof TrustRejection) throw error;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unreadable';
      throw new TrustRejection('unauthenticated', `bad service token (${reason})`);
    }
  }
}
