import { createHash, randomUUID } from 'node:crypto';
import { PRINCIPAL_REVISION_TTL_SECONDS, principalRevisionKey } from '@platform/auth';
import { API_KEY_RULES, API_KEY_SCOPES, type apikeysV1 } from '@platform/contracts';
import { ApiKeyScope } from '@platform/contracts/platform/apikeys/v1/apikeys';
import { BusinessError } from '@platform/errors';
import type { Principal, ServiceClient } from '@platform/grpc';
import { hasPermission } from '@platform/rbac';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { ApiKeyCheck } from './api-key-check.js';
import type { ApiKeyVerifier, PrincipalResolver } from './authenticator.js';

interface CachedAnswer {
  verified: apikeysV1.VerifiedKey;
  /** Epoch ms after which the key has expired (Infinity: never). */
  expiresAt: number;
  /** Last time this replica recorded a use of the key in Redis (coalesced to one per second). */
  usageRecordedAt: number;
}

export interface ApiKeysVerifierOptions {
  /** Cached answers per replica; 0 disables the cache (every request asks apikeys). */
  maxEntries: number;
  /** Upper bound on an answer's age even while its revision holds. */
  maxAgeMs?: number;
  /** Epoch ms the cache's expiry checks go by (tests move it instead of waiting). */
  now?: () => number;
}

const unavailable = (cause: unknown) => BusinessError.named('service_unavailable', { cause });

/** A use is written to Redis at most this often per key and replica (last_used_at precision). */
const USAGE_RECORD_INTERVAL_MS = 1_000;

/**
 * The gateway's ApiKeyVerifier: apikeys' VerifyKey, with successful answers cached per replica by
 * (SHA-256 of the key, scope, agent, workflow). A cached answer is used only while the key's
 * revision in Redis still equals the one apikeys returned (one GET per request; apikeys deletes
 * the revision on every change before it answers, so a revocation or scope change applies to the
 * very next request on every replica) and the key has not expired. Failures are never cached.
 * Redis unreachable: 503 (fail closed, like the JWT revocation check). `lru-cache` bounds the
 * answers (`maxEntries`, least recently used go first) and their age (`maxAgeMs`); the key's own
 * expiry is an absolute instant, checked here.
 */
export class ApiKeysVerifier implements ApiKeyVerifier {
  private readonly cache: LRUCache<string, CachedAnswer> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly apikeys: ServiceClient<typeof apikeysV1.ApiKeysServiceService>,
    private readonly redis: Redis,
    private readonly principals: PrincipalResolver,
    options: ApiKeysVerifierOptions,
  ) {
    this.now = options.now ?? Date.now;
    const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    // lru-cache reads a TTL of 0 as "never stale": a zero age, like zero entries, means no cache.
    this.cache =
      options.maxEntries > 0 && maxAgeMs > 0
        ? new LRUCache({
            max: options.maxEntries,
            ttl: maxAgeMs,
            // The injected clock, read at every check: tests move it instead of waiting.
            perf: { now: this.now },
            ttlResolution: 0,
          })
        : undefined;
  }

  looksLikeApiKey(credential: string): boolean {
    return credential.startsWith('sk-');
  }

  async verify(credential: string, check: ApiKeyCheck): Promise<Principal> {
    const cacheKey = [
      createHash('sha256').update(credential).digest('base64url'),
      check.scope,
      check.agentId ?? '',
      check.workflowId ?? '',
    ].join('|');
    const now = this.now();
    const cached = this.cache?.get(cacheKey);
    if (cached && cached.expiresAt > now) {
      const { current, ownerRevision } = await this.stillCurrent(cached, now);
      if (current) return this.principalFor(cached.verified, ownerRevision, check);
    }
    this.cache?.delete(cacheKey);
    const verified = await this.apikeys.call('verifyKey', {
      key: credential,
      // A route without a declared scope names none, which no key holds.
      scope: API_KEY_SCOPES.has(check.scope)
        ? API_KEY_SCOPES.toProto(check.scope)
        : ApiKeyScope.API_KEY_SCOPE_UNSPECIFIED,
      agent_id: check.agentId ?? '',
      workflow_id: check.workflowId ?? '',
    });
    // The age counts from before the call: the answer is at least that fresh.
    this.cache?.set(
      cacheKey,
      {
        verified,
        expiresAt: verified.expires_at ? Date.parse(verified.expires_at) : Number.POSITIVE_INFINITY,
        usageRecordedAt: now, // VerifyKey recorded this use
      },
      { start: now },
    );
    const ownerRevision = await this.ownerRevision(verified.user_id);
    return this.principalFor(verified, ownerRevision, check);
  }

  /**
   * One Redis round trip: the key's revision, the owner's principal revision (created when
   * missing, as the JWT path does), plus the coalesced use when one is due.
   */
  private async stillCurrent(
    cached: CachedAnswer,
    now: number,
  ): Promise<{ current: boolean; ownerRevision: string }> {
    const { revision_key, revision, usage_key, key_id, user_id } = cached.verified;
    const fresh = randomUUID();
    try {
      const pipeline = this.redis
        .pipeline()
        .get(revision_key)
        .set(principalRevisionKey(user_id), fresh, 'EX', PRINCIPAL_REVISION_TTL_SECONDS, 'NX', 'GET');
      const recordUse = now - cached.usageRecordedAt >= USAGE_RECORD_INTERVAL_MS;
      if (recordUse) pipeline.zadd(usage_key, 'GT', now, key_id);
      const results = await pipeline.exec();
      if (recordUse) cached.usageRecordedAt = now;
      const [keyError, current] = results?.[0] ?? [new Error('no pipeline result'), null];
      const [ownerError, existing] = results?.[1] ?? [new Error('no pipeline result'), null];
      if (keyError ?? ownerError) throw keyError ?? ownerError;
      return { current: current === revision, ownerRevision: (existing as string | null) ?? fresh };
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** The owner's principal revision, read (or created) before the owner is looked up. */
  private async ownerRevision(userId: string): Promise<string> {
    const fresh = randomUUID();
    try {
      const existing = await this.redis.set(
        principalRevisionKey(userId),
        fresh,
        'EX',
        PRINCIPAL_REVISION_TTL_SECONDS,
        'NX',
        'GET',
      );
      return existing ?? fresh;
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * The key acts for its owner: the owner's id, name and teams (services check resource access by
   * them) but no global permissions (`permissions: []`, never superuser); what a key may do is its
   * scopes, and never more than its owner may do at this request: the route's permission must be
   * the owner's now (403 / 3000 `api_key_owner_permission_missing`), and `owner_permissions` tells
   * services which of the key-usable permissions the owner holds. A deactivated, pending or deleted
   * owner makes the key invalid (401 / 2001). All of it from the very next request on: the owner is
   * looked up under its principal revision, which identity moves on every role or status change.
   */
  private async principalFor(
    verified: apikeysV1.VerifiedKey,
    ownerRevision: string,
    check: ApiKeyCheck,
  ): Promise<Principal> {
    const owner = await this.principals.resolve(verified.user_id, ownerRevision);
    if (!owner || !owner.is_active || owner.approval_status !== 'approved') {
      throw BusinessError.named('api_key_invalid');
    }
    const ownerPermissions = API_KEY_RULES.ownerPermissions.filter((code) => hasPermission(owner, code));
    const required = check.ownerPermission;
    // Only the key-usable permissions count: a route asking for another one refuses every key.
    if (required && !(ownerPermissions as readonly string[]).includes(required)) {
      throw BusinessError.named('api_key_owner_permission_missing', { data: { permission: required } });
    }
    return {
      user_id: owner.user_id,
      username: owner.username,
      is_superuser: false,
      permissions: [],
      team_ids: owner.team_ids,
      auth_method: 'api_key',
      api_key_id: verified.key_id,
      scopes: verified.scopes.flatMap((scope) => API_KEY_SCOPES.fromProto(scope) ?? []),
      owner_permissions: ownerPermissions,
    };
  }

  invalidateAll(): void {
    this.cache?.clear();
  }
}
