import type { TokenClaims } from './tokens.js';

/** The two Redis commands the registry needs (ioredis satisfies this). */
export interface SessionStore {
  mget(...keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, mode: 'PX', ttlMs: number): Promise<unknown>;
}

export type SessionState = 'valid' | 'revoked' | 'superseded';

const revokedKey = (jti: string) => `auth:revoked:${jti}`;
const currentSessionKey = (userId: string) => `auth:session:${userId}`;

/**
 * Token revocation in Redis, shared by identity (writes) and the gateway (reads on every request,
 * one MGET, no database). Entries expire with the token they describe, so the set stays small.
 */
export class SessionRegistry {
  constructor(private readonly store: SessionStore) {}

  /** Logout: the token is refused from the next request on. */
  async revoke(claims: TokenClaims): Promise<void> {
    await this.store.set(revokedKey(claims.jti), '1', 'PX', this.ttlMs(claims));
  }

  /** Single-session login: any other token of this user issued before is superseded. */
  async makeCurrent(claims: TokenClaims): Promise<void> {
    await this.store.set(currentSessionKey(claims.sub), claims.jti, 'PX', this.ttlMs(claims));
  }

  async check(claims: TokenClaims): Promise<SessionState> {
    const [revoked, current] = await this.store.mget(revokedKey(claims.jti), currentSessionKey(claims.sub));
    if (revoked) return 'revoked';
    if (current && current !== claims.jti) return 'superseded';
    return 'valid';
  }

  private ttlMs(claims: TokenClaims): number {
    return Math.max(1_000, claims.exp * 1000 - Date.now());
  }
}
