import { Redis, type RedisOptions } from 'ioredis';
import { createLogger, type Logger } from '@platform/logger';
import { watchEvictionPolicy } from './eviction-policy.js';
import { timeCommands } from './command-metrics.js';

export type { Redis };

export interface CreateRedisOptions {
  logger?: Logger;
  /** Do not connect until the first command (or an explicit `connect()`). Default false. */
  lazyConnect?: boolean;
  /** Prepended to every key (including KEYS of Lua scripts), e.g. `identity:`. */
  keyPrefix?: string;
  /**
   * How many reconnection attempts a queued command waits through before it is rejected. Small so
   * callers fail fast while Redis is down instead of hanging. Default 2.
   */
  maxRetriesPerRequest?: number;
  /** Upper bound for the delay between reconnection attempts. Default 5000 ms. */
  maxRetryDelayMs?: number;
  /** TCP connect timeout. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Per-command timeout; unset means none. */
  commandTimeoutMs?: number;
  /** Connection name shown by `CLIENT LIST`. */
  connectionName?: string;
}

/** Delay before reconnection attempt `times` (1-based): 100, 200, 400 … capped at `maxMs`. Never gives up. */
export function reconnectDelay(times: number, maxMs = 5000): number {
  return Math.min(100 * 2 ** Math.max(0, times - 1), maxMs);
}

/**
 * An ioredis client with bounded per-request retries, capped exponential reconnection and `error`
 * events logged (throttled) rather than thrown: an unhandled `error` event would otherwise crash the
 * process, and a client retrying every 100 ms would otherwise flood the log.
 */
export function createRedis(url: string, options: CreateRedisOptions = {}): Redis {
  const logger = (options.logger ?? createLogger('redis')).child({ component: 'redis' });
  const maxDelay = options.maxRetryDelayMs ?? 5000;
  const redisOptions: RedisOptions = {
    lazyConnect: options.lazyConnect ?? false,
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? 2,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    retryStrategy: (times) => reconnectDelay(times, maxDelay),
    enableOfflineQueue: true,
  };
  if (options.keyPrefix) redisOptions.keyPrefix = options.keyPrefix;
  if (options.commandTimeoutMs) redisOptions.commandTimeout = options.commandTimeoutMs;
  if (options.connectionName) redisOptions.connectionName = options.connectionName;

  const client = new Redis(url, redisOptions);
  timeCommands(client);

  let lastMessage = '';
  let lastLoggedAt = 0;
  let suppressed = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (err.message === lastMessage && now - lastLoggedAt < 10_000) {
      suppressed += 1;
      return;
    }
    logger.warn({ err: err.message, suppressed }, 'redis connection error');
    lastMessage = err.message;
    lastLoggedAt = now;
    suppressed = 0;
  });
  watchEvictionPolicy(client, logger);
  let wasReady = false;
  client.on('ready', () => {
    if (wasReady) logger.info('redis reconnected');
    wasReady = true;
    lastMessage = '';
  });
  return client;
}

/** QUIT politely, falling back to a hard disconnect if the server does not answer in time. */
export async function closeRedis(client: Redis, timeoutMs = 2000): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('quit timed out')), timeoutMs);
      }),
    ]);
  } catch {
    client.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
