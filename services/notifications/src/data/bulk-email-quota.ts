import type { Redis } from '@platform/redis';

// Sliding one-hour window of the e-mails a sender queued: one sorted-set member per e-mail.
// All-or-nothing, atomic, so a parallel burst cannot overshoot the limit.
const RESERVE_SENDER = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used + n > limit then return -1 end
for i = 1, n do redis.call('ZADD', KEYS[1], now, ARGV[5] .. ':' .. i) end
redis.call('PEXPIRE', KEYS[1], window)
return limit - used - n
`;

// Per recipient and calendar day: take one slot per key while under the cap; 1 = taken, 0 = full.
const RESERVE_RECIPIENTS = `
local cap = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local taken = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIRE', key, ttl) end
  if count > cap then
    redis.call('DECR', key)
    taken[i] = 0
  else
    taken[i] = 1
  end
end
return taken
`;

export const BULK_EMAIL_LIMITS = {
  /** E-mails one sender may queue per hour (spec Limits: 100). */
  perSenderPerHour: 100,
  /** Bulk e-mails one recipient gets per calendar day, server time (spec Limits: 5). */
  perRecipientPerDay: 5,
} as const;

const HOUR_MS = 3_600_000;

/** The server-time calendar day `YYYY-MM-DD` of `now`. */
export function serverDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The two bulk e-mail quotas, in Redis (shared by every replica). */
export class BulkEmailQuota {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private senderKey(senderId: string): string {
    return `${this.prefix}bulk-email:sender:${senderId}`;
  }

  /** Takes `count` e-mails of the sender's hourly allowance, all or none; false when it does not fit. */
  async reserveSender(senderId: string, count: number, token: string, now: Date): Promise<boolean> {
    const left = (await this.redis.eval(
      RESERVE_SENDER,
      1,
      this.senderKey(senderId),
      now.getTime(),
      HOUR_MS,
      BULK_EMAIL_LIMITS.perSenderPerHour,
      count,
      token,
    )) as number;
    return left >= 0;
  }

  /** Gives back e-mails `from + 1 .. to` of a reservation (recipients skipped, or not queued). */
  async releaseSender(senderId: string, token: string, from: number, to: number): Promise<void> {
    if (to <= from) return;
    const members: string[] = [];
    for (let i = from + 1; i <= to; i += 1) members.push(`${token}:${i}`);
    await this.redis.zrem(this.senderKey(senderId), ...members);
  }

  /** One slot of each recipient's daily allowance; the answer says who got one. */
  async reserveRecipients(recipientIds: readonly string[], now: Date): Promise<boolean[]> {
    if (recipientIds.length === 0) return [];
    const day = serverDay(now);
    const keys = recipientIds.map((id) => `${this.prefix}bulk-email:recipient:${day}:${id}`);
    const taken = (await this.redis.eval(
      RESERVE_RECIPIENTS,
      keys.length,
      ...keys,
      BULK_EMAIL_LIMITS.perRecipientPerDay,
      2 * 86_400,
    )) as number[];
    return taken.map((flag) => flag === 1);
  }
}
