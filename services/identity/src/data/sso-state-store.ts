import { sha256Hex } from '@platform/crypto';
import type { Redis } from '@platform/redis';

/** An SSO sign-in in flight lives 10 minutes; the callback takes it once. */
export const SSO_STATE_SECONDS = 600;

/** What the callback needs to finish the flow the login route started. */
export interface PendingSsoLogin {
  providerId: string;
  providerName: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
}

/** The key holds only a hash of `state`, so a Redis dump cannot be replayed against the callback. */
const key = (state: string) => `sso:state:${sha256Hex(state)}`;

export async function savePendingLogin(redis: Redis, state: string, pending: PendingSsoLogin): Promise<void> {
  await redis.set(key(state), JSON.stringify(pending), 'EX', SSO_STATE_SECONDS);
}

/** GETDEL: single use, also when two callbacks with the same state race. */
export async function takePendingLogin(redis: Redis, state: string): Promise<PendingSsoLogin | undefined> {
  const raw = await redis.getdel(key(state));
  return raw ? (JSON.parse(raw) as PendingSsoLogin) : undefined;
}
