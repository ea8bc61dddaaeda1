import { createHash } from 'node:crypto';
import type { TokenClaims } from './tokens.js';

/** The Redis commands the registry needs (ioredis satisfies this). */
export interface SessionStore {
  mget(...keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, mode: 'PX', ttlMs: number): Promise<unknown>;
  del(...keys: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** When the store has it, the hot-path script runs by its SHA1 (EVALSHA) instead of its text. */
  evalsha?(sha1: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/** `ended`: issued before its user's sessions were ended (`endSessionsBefore`). */
export type SessionState = 'valid' | 'revoked' | 'superseded' | 'ended';

export interface SessionCheck {
  state: SessionState;
  /** The user's principal revision (see `invalidatePrincipal`), created when it was missing. */
  principalRevision: string;
}

const revokedKey = (jti: string) => `auth:revoked:${jti}`;
const currentSessionKey = (userId: string) => `auth:session:${userId}`;
const validAfterKey = (userId: string) => `auth:valid-after:${userId}`;
/** The Redis key of a user's principal revision (read by the gateway, deleted by identity). */
export const principalRevisionKey = (userId: string) => `auth:principal-rev:${userId}`;
/** How long a revision lives unchanged; a new one just makes gateways fetch the principal again. */
export const PRINCIPAL_REVISION_TTL_SECONDS = 86_400;

/** Longer than any token lives (`session_timeout_days` is at most 365). */
const VALID_AFTER_TTL_MS = 366 * 86_400_000;

// One round trip for the gateway: the three session entries, and the principal revision (set to
// ARGV[1] when missing, so it is read BEFORE the principal it will be paired with).
const CHECK_WITH_REVISION = `
local revoked = redis.call('GET', KEYS[1]) or ''
local current = redis.call('GET', KEYS[2]) or ''
local after = redis.call('GET', KEYS[3]) or ''
local rev = redis.call('GET', KEYS[4])
if not rev then
  rev = ARGV[1]
  redis.call('SET', KEYS[4], rev, 'EX', ARGV[2])
end
return {revoked, current, after, rev}`;
const CHECK_WITH_REVISION_SHA1 = createHash('sha1').update(CHECK_WITH_REVISION).digest('hex');

const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * Token revocation in Redis, shared by identity (writes) and the gateway (reads on every request,
 * one round trip, no database):
 * - `revoke`: one token (logout, a used temp token);
 * - `makeCurrent`: single session, every other token of the user is superseded;
 * - `endSessionsBefore`: every token of the user issued up to now ends (password changed or
 *   reset, user deactivated, forced password change), optionally but one (the request's own);
 * - `invalidatePrincipal`: the user's roles, permissions or state changed; gateways drop their
 *   cached principal on the very next request (the revision they cached it with is gone).
 * Entries expire with the tokens they describe, so the set stays small.
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

  /** Every token of `userId` issued until now is refused from the next request on, except `keepJti`. */
  async endSessionsBefore(userId: string, keepJti = '', now = Date.now()): Promise<void> {
    await this.store.set(validAfterKey(userId), `${now}:${keepJti}`, 'PX', VALID_AFTER_TTL_MS);
  }

  /** Call after the change committed: the next request on every gateway re-reads the principal. */
  async invalidatePrincipal(userId: string): Promise<void> {
    await this.invalidatePrincipals([userId]);
  }

  /** `invalidatePrincipal` for many users (a role's holders), a thousand keys per command. */
  async invalidatePrincipals(userIds: readonly string[]): Promise<void> {
    for (let i = 0; i < userIds.length; i += 1_000) {
      await this.store.del(...userIds.slice(i, i + 1_000).map(principalRevisionKey));
    }
  }

  async check(claims: TokenClaims): Promise<SessionState> {
    const [revoked, current, validAfter] = await this.store.mget(
      revokedKey(claims.jti),
      currentSessionKey(claims.sub),
      validAfterKey(claims.sub),
    );
    return stateOf(claims, revoked ?? null, current ?? null, validAfter ?? null);
  }

  /** `check` plus the user's principal revision, in one round trip (the gateway's hot path). */
  async checkWithRevision(claims: TokenClaims, freshRevision: string): Promise<SessionCheck> {
    const args = [
      revokedKey(claims.jti),
      currentSessionKey(claims.sub),
      validAfterKey(claims.sub),
      principalRevisionKey(claims.sub),
      freshRevision,
      PRINCIPAL_REVISION_TTL_SECONDS,
    ];
    const [revoked, current, validAfter, revision] = (await this.runCheckScript(args)) as [
      string,
      string,
      string,
      string,
    ];
    return {
      state: stateOf(claims, revoked || null, current || null, validAfter || null),
      principalRevision: revision,
    };
  }

  /**
   * The script by its SHA1 (no script text on the wire per request); a Redis that does not know it
   * yet (started, flushed, failed over) answers NOSCRIPT once and gets the text, which loads it.
   */
  private async runCheckScript(args: (string | number)[]): Promise<unknown> {
    if (this.store.evalsha) {
      try {
        return await this.store.evalsha(CHECK_WITH_REVISION_SHA1, 4, ...args);
      } catch (error) {
        if (!isNoScript(error)) throw error;
      }
    }
    return this.store.eval(CHECK_WITH_REVISION, 4, ...args);
  }

  private ttlMs(claims: TokenClaims): number {
    return Math.max(1_000, claims.exp * 1000 - Date.now());
  }
}

function stateOf(
  claims: TokenClaims,
  revoked: string | null,
  current: string | null,
  validAfter: string | null,
): SessionState {
  if (revoked) return 'revoked';
  if (validAfter) {
    const separator = validAfter.indexOf(':');
    const after = Number(validAfter.slice(0, separator));
    const kept = validAfter.slice(separator + 1);
    if (claims.issuedAtMs <= after && claims.jti !== kept) return 'ended';
  }
  if (current && current !== claims.jti) return 'superseded';
  return 'valid';
}
