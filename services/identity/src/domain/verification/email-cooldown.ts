import { sha256Hex } from '@platform/crypto';
import { BusinessError, ErrorCode } from '@platform/errors';
import type { Redis } from '@platform/redis';
import type { VerificationPurpose } from '../../data/verification-repository.js';

/** Spec "Limits": one verification or reset mail per email and purpose every 60 seconds. */
export const MAIL_COOLDOWN_SECONDS = 60;

function cooldownKey(email: string, purpose: VerificationPurpose): string {
  // Hashed so Redis never holds the address in clear.
  return `identity:mail-cooldown:${purpose}:${sha256Hex(email.toLowerCase())}`;
}

/**
 * Claims the cooldown slot (SET NX EX) or throws 5008 with `data.remaining_seconds`. Callers claim
 * it for unknown addresses too, so the answers for known and unknown addresses look the same.
 */
export async function claimMailCooldown(
  redis: Redis,
  email: string,
  purpose: VerificationPurpose,
): Promise<void> {
  const key = cooldownKey(email, purpose);
  const claimed = await redis.set(key, '1', 'EX', MAIL_COOLDOWN_SECONDS, 'NX');
  if (claimed === 'OK') return;
  const ttl = await redis.ttl(key);
  const remaining = ttl > 0 ? ttl : 1;
  throw new BusinessError(ErrorCode.EMAIL_SEND_TOO_FREQUENT, { data: { remaining_seconds: remaining } });
}

/** Gives the slot back when the mail could not be queued, so the user may retry at once. */
export async function releaseMailCooldown(
  redis: Redis,
  email: string,
  purpose: VerificationPurpose,
): Promise<void> {
  await redis.del(cooldownKey(email, purpose));
}
