import { LRUCache } from 'lru-cache';

/**
 * A bounded map of verified tokens to what they proved, each entry valid until its token expires.
 * A token is an exact string, so a hit proves the same thing its first verification did; only the
 * expiry needs checking again. `lru-cache` holds the entries and drops the least recently used when
 * full; the expiry stays a check here because it is inclusive (a token is refused AT its expiry, as
 * jose does), which lru-cache's TTL (stale only after it) cannot say exactly.
 */
export class ExpiringCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, { value: V; expiresAt: number }>;

  constructor(
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.set(key, { value, expiresAt });
  }
}
