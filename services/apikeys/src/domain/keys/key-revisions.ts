import { randomUUID } from 'node:crypto';
import type { Redis } from '@platform/redis';

const REVISION_TTL_SECONDS = 24 * 3600;

/**
 * The gateway caches verification answers per key together with the key's current revision and
 * re-reads the revision (one Redis GET) on every request. A change deletes the revision after it
 * committed and before the RPC answers, so every replica's next request sees a mismatch and asks
 * apikeys again: revocation and scope changes apply to the very next request.
 *
 * Revisions are keyed by the key prefix (unique, and derivable from the presented key before any
 * lookup). Ordering that makes this safe: `VerifyKey` reads (or creates) the revision BEFORE it
 * reads the key from Postgres, so an answer computed from a state older than a change is always paired with
 * a revision that change deleted. A missing revision (expired, Redis restarted) is a mismatch too.
 */
export class KeyRevisions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  revisionKey(keyPrefix: string): string {
    return `${this.prefix}rev:${keyPrefix}`;
  }

  async current(keyPrefix: string): Promise<string> {
    const key = this.revisionKey(keyPrefix);
    const fresh = randomUUID();
    // SET NX … GET returns the old value when one exists (Redis 7), else sets ours.
    const existing = await this.redis.set(key, fresh, 'EX', REVISION_TTL_SECONDS, 'NX', 'GET');
    return existing ?? fresh;
  }

  async invalidate(keyPrefix: string): Promise<void> {
    await this.redis.del(this.revisionKey(keyPrefix));
  }
}
