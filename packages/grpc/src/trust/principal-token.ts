import { createHash, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ExpiringCache } from './expiring-cache.js';
import { parsePrivateSigningKey, parsePublicVerifyKeys, type Ed25519PrivateKey } from './keys.js';
import { TrustRejection } from './trust-rejection.js';

/** Lifetime of a principal signature; a signature is reused by the gateway for its first half. */
export const PRINCIPAL_TOKEN_LIFETIME_SECONDS = 60;
/** Accepted clock difference between the gateway and a service. */
export const CLOCK_TOLERANCE_SECONDS = 5;
const ISSUER = 'gateway';
const ALGORITHM = 'EdDSA';
const CACHE_ENTRIES = 10_000;

/** Binds a signature to the exact `x-principal-bin` bytes it was made for. */
export function principalDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

interface PrincipalClaims extends JWTPayload {
  /** base64url SHA-256 of the principal bytes. */
  pdg: string;
}

/**
 * The gateway's side: a short-lived EdDSA JWT per (audience, principal), `aud` = the called
 * service, `pdg` = the digest of the principal bytes. Reused while more than half its life is
 * left, so a busy user costs one signature per service every 30 s, not one per call.
 */
export class PrincipalSigner {
  private readonly key: Ed25519PrivateKey;
  private readonly cache: ExpiringCache<string>;

  constructor(
    privateKeyPem: string,
    private readonly lifetimeSeconds = PRINCIPAL_TOKEN_LIFETIME_SECONDS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = parsePrivateSigningKey(privateKeyPem);
    this.cache = new ExpiringCache(CACHE_ENTRIES, now);
  }

  /** A signature still fresh for these exact bytes and audience, without signing (the hot path). */
  cached(audience: string, principalBytes: Buffer): string | undefined {
    return this.cache.get(`${audience}\u0000${principalDigest(principalBytes)}`);
  }

  async sign(audience: string, principalBytes: Buffer): Promise<string> {
    const digest = principalDigest(principalBytes);
    const cacheKey = `${audience}\u0000${digest}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const iat = Math.floor(this.now() / 1000);
    const token = await new SignJWT({ pdg: digest })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.key.kid })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds)
      .sign(this.key.key);
    this.cache.set(cacheKey, token, (iat + this.lifetimeSeconds / 2) * 1000);
    return token;
  }
}

/**
 * A service's side: accepts a principal only with a valid gateway signature for this service
 * (audience), not expired, whose digest matches the bytes received. A verified token is cached
 * until it expires, so each signature costs one EdDSA verification per process.
 */
export class PrincipalVerifier {
  private readonly keys: Map<string, KeyObject>;
  private readonly verified: ExpiringCache<string>;

  constructor(
    private readonly audience: string,
    publicKeys: string | readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    this.keys = parsePublicVerifyKeys(publicKeys);
    this.verified = new ExpiringCache(CACHE_ENTRIES, now);
  }

  async verify(token: string | undefined, principalBytes: Buffer): Promise<void> {
    if (!token) throw new TrustRejection('unauthenticated', 'principal without a signature');
    let digest = this.verified.get(token);
    if (digest === undefined) {
      const claims = await this.verifySignature(token);
      digest = claims.pdg;
      this.verified.set(token, digest, (claims.exp! + CLOCK_TOLERANCE_SECONDS) * 1000);
    }
    if (digest !== principalDigest(principalBytes)) {
      throw new TrustRejection('unauthenticated', 'principal does not match its signature');
    }
  }

  private async verifySignature(token: string): Promise<PrincipalClaims> {
    try {
      const { payload } = await jwtVerify<PrincipalClaims>(
        token,
        (header) => {
          const key = header.kid ? this.keys.get(header.kid) : undefined;
          if (!key) throw new TrustRejection('unauthenticated', 'principal signed with an unknown key');
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: this.audience,
          requiredClaims: ['exp', 'iat', 'pdg'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          maxTokenAge: PRINCIPAL_TOKEN_LIFETIME_SECONDS * 2,
          currentDate: new Date(this.now()),
        },
      );
      if (typeof payload.pdg !== 'string') throw new Error('pdg is not a string');
      return payload;
    } catch (error) {
      if (error instanceof TrustRejection) throw error;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unreadable';
      throw new TrustRejection('unauthenticated', `bad principal signature (${reason})`);
    }
  }
}
