import { deriveKey, randomToken } from '@platform/crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** `access`: a full session; `totp_challenge` / `totp_enrollment`: the two-factor temp tokens. */
export type TokenType = 'access' | 'totp_challenge' | 'totp_enrollment';

export interface TokenClaims {
  /** User id. */
  sub: string;
  /** Unique token id, the handle for revocation. */
  jti: string;
  typ: TokenType;
  /** Seconds since epoch. */
  iat: number;
  exp: number;
  /**
   * Issue time in milliseconds (claim `iat_ms`): `iat` has whole seconds only, too coarse to tell
   * a token issued just before a password change from one issued just after it.
   */
  issuedAtMs: number;
}

export interface IssuedToken {
  token: string;
  claims: TokenClaims;
}

/** Why a token was refused: the gateway maps every reason to 403 / 2003. */
export class TokenError extends Error {
  constructor(readonly reason: 'malformed' | 'expired' | 'invalid') {
    super(`token ${reason}`);
    this.name = 'TokenError';
  }
}

const ISSUER = 'agent-platform';

/**
 * Signs and verifies the platform's JWTs (HS256 with a key derived from SECRET_KEY). Identity
 * issues tokens; the gateway verifies them locally, with no call to identity.
 */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(secretKey: string) {
    this.key = new Uint8Array(deriveKey(secretKey, 'jwt-signing'));
  }

  async issue(userId: string, type: TokenType, lifetimeSeconds: number): Promise<IssuedToken> {
    const issuedAtMs = Date.now();
    const iat = Math.floor(issuedAtMs / 1000);
    const claims: TokenClaims = {
      sub: userId,
      jti: randomToken(16),
      typ: type,
      iat,
      exp: iat + lifetimeSeconds,
      issuedAtMs,
    };
    const token = await new SignJWT({ typ: claims.typ, iat_ms: issuedAtMs })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuer(ISSUER)
      .setIssuedAt(claims.iat)
      .setExpirationTime(claims.exp)
      .sign(this.key);
    return { token, claims };
  }

  async verify(token: string, expectedType: TokenType): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.jti !== 'string' ||
        typeof payload.iat !== 'number' ||
        typeof payload.exp !== 'number' ||
        payload.typ !== expectedType
      ) {
        throw new TokenError('invalid');
      }
      const issuedAtMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : payload.iat * 1000;
      return {
        sub: payload.sub,
        jti: payload.jti,
        typ: expectedType,
        iat: payload.iat,
        exp: payload.exp,
        issuedAtMs,
      };
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof errors.JWTExpired) throw new TokenError('expired');
      if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
        throw new TokenError('malformed');
      throw new TokenError('invalid');
    }
  }
}
