import { identityV1 } from '@platform/contracts';
import { createServiceClient, type CallCredentials, type ServiceClient } from '@platform/grpc';
import { LRUCache } from 'lru-cache';

const NAME_TTL_MS = 60_000;
const MAX_CACHED = 10_000;

/** Usernames of key owners, from identity (the owner of user records). */
export interface UserDirectory {
  usernames(ids: string[]): Promise<Map<string, string>>;
  close(): void;
}

/** `credentials`: apikeys' service token for identity (GetUsers is internal-only). */
export function identityUserDirectory(address: string, credentials: CallCredentials): UserDirectory {
  const client: ServiceClient<typeof identityV1.IdentityServiceService> = createServiceClient(
    identityV1.IdentityServiceService,
    'platform.identity.v1.IdentityService',
    address,
    { defaultTimeoutMs: 5_000, credentials },
  );
  // Names change rarely; a short per-process cache keeps identity off the cold verification path.
  const cache = new LRUCache<string, string>({ max: MAX_CACHED, ttl: NAME_TTL_MS });
  return {
    async usernames(ids) {
      const found = new Map<string, string>();
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const hit = cache.get(id);
        if (hit !== undefined) found.set(id, hit);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const { users } = await client.call('getUsers', { ids: missing });
      for (const user of users) {
        cache.set(user.id, user.username);
        found.set(user.id, user.username);
      }
      return found;
    },
    close: () => client.close(),
  };
}
