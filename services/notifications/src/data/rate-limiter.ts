import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from '@platform/redis';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

/**
 * Sliding-window log per destination, one sorted set per window, checked and taken in one Lua
 * call so every replica sharing the Redis sees the same count. Answers 0 when the send may go now
 * (and records it), else the milliseconds until the oldest send in the fullest window leaves it.
 * Time is Redis's own clock, so replicas with skewed clocks still agree.
 */
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= limit then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local until_free = tonumber(oldest[2]) + window - now
    if until_free > wait then wait = until_free end
  end
end
if wait > 0 then return wait end
local member = ARGV[#ARGV]
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, tonumber(ARGV[2 * i]))
end
return 0`;

/**
 * The vendors' published limits per destination (one robot webhook or app): DingTalk and WeCom
 * robots 20 a minute; Feishu robots 5 a second and 100 a minute; Slack incoming webhooks about 1
 * a second. Generic webhooks and SMTP have no vendor limit.
 */
export const VENDOR_LIMITS: Record<string, RateWindow[]> = {
  dingtalk: [{ limit: 20, windowMs: 60_000 }],
  wechat: [{ limit: 20, windowMs: 60_000 }],
  feishu: [
    { limit: 5, windowMs: 1_000 },
    { limit: 100, windowMs: 60_000 },
  ],
  slack: [{ limit: 1, windowMs: 1_000 }],
};

export class DestinationRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'notifications:rate:',
  ) {}

  /**
   * Takes one send slot for `destination` (e.g. the robot URL; only its hash is stored) under
   * every window, or answers how long to wait. No slot is taken when the answer is a wait.
   */
  async take(destination: string, windows: readonly RateWindow[]): Promise<number> {
    if (windows.length === 0) return 0;
    const id = createHash('sha256').update(destination).digest('hex').slice(0, 32);
    const keys = windows.map((w) => `${this.prefix}${id}:${w.windowMs}`);
    const args = windows.flatMap((w) => [String(w.limit), String(w.windowMs)]);
    args.push(randomBytes(8).toString('hex'));
    const wait = await this.redis.eval(SCRIPT, keys.length, ...keys, ...args);
    return Number(wait);
  }
}
