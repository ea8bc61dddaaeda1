import { APPROVAL_STATUSES, type identityV1 } from '@platform/contracts';
import type { ServiceClient } from '@platform/grpc';
import { LRUCache } from 'lru-cache';
import type { PrincipalResolver, ResolvedUser } from './authenticator.js';

interface CacheEntry {
  user: ResolvedUser | null;
  /** The user's principal revision read before this answer was fetched. */
  revision: string | undefined;
}

/**
 * Principal lookup through identity's GetPrincipal, cached per gateway replica for at most `ttlMs`
 * so the hot path does not reach Postgres on every request. An answer is cached with the user's
 * principal revision (read from Redis in the revocation round trip, before the lookup); identity
 * deletes the revision after every change of roles, role permissions, activation or approval, so
 * the next request on every replica carries another revision and fetches again: those changes
 * apply at once. Team changes are seen within the TTL. `invalidate(userId)` drops an entry.
 * `lru-cache` keeps at most `maxEntries` (least recently used go first); a TTL of 0 caches nothing.
 */
export class IdentityPrincipalResolver implements PrincipalResolver {
  private readonly cache: LRUCache<string, CacheEntry> | undefined;

  constructor(
    private readonly identity: ServiceClient<typeof identityV1.IdentityServiceService>,
    ttlMs = 5_000,
    maxEntries = 50_000,
  ) {
    // lru-cache reads a TTL of 0 as "never stale", so no TTL means no cache here.
    this.cache = ttlMs > 0 && maxEntries > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs }) : undefined;
  }

  async resolve(userId: string, revision?: string): Promise<ResolvedUser | null> {
    const cached = this.cache?.get(userId);
    if (cached && (revision === undefined || cached.revision === revision)) {
      return cached.user;
    }
    const record = await this.identity.call('getPrincipal', { user_id: userId });
    const user: ResolvedUser | null = record.found
      ? {
          user_id: record.user_id,
          username: record.username,
          is_superuser: record.is_superuser,
          permissions: record.permissions,
          team_ids: record.team_ids,
          auth_method: 'jwt',
          is_active: record.is_active,
          approval_status: APPROVAL_STATUSES.fromProto(record.approval_status) ?? 'pending',
        }
      : null;
    this.cache?.set(userId, { user, revision });
    return user;
  }

  invalidate(userId?: string): void {
    if (userId) this.cache?.delete(userId);
    else this.cache?.clear();
  }
}
