import { createHash } from 'node:crypto';
import type { Redis } from '@platform/redis';
import type { AppTokens, FetchedToken } from '../../domain/delivery/delivery-ports.js';

/**
 * Vendor app access tokens (DingTalk, WeCom, Feishu: about two hours each), shared by every
 * replica through Redis and refreshed five minutes before they expire. The key is a hash of the
 * app's credentials, so a changed secret never reuses the old token. A token the vendor calls
 * invalid is dropped (`forget`) and the next attempt fetches a new one.
 */
export class AppTokenCache implements AppTokens {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'notifications:app-token:',
  ) {}

  private key(vendor: string, credentials: string): string {
    return `${this.prefix}${vendor}:${createHash('sha256').update(credentials).digest('hex').slice(0, 32)}`;
  }

  async get(vendor: string, credentials: string, fetch: () => Promise<FetchedToken>): Promise<string> {
    const key = this.key(vendor, credentials);
    const cached = await this.redis.get(key);
    if (cached) return cached;
    const fresh = await fetch();
    const ttl = Math.max(60, fresh.expiresInSeconds - 300);
    await this.redis.set(key, fresh.token, 'EX', ttl);
    return fresh.token;
  }

  async forget(vendor: string, credentials: string): Promise<void> {
    await this.redis.del(this.key(vendor, credentials));
  }
}
