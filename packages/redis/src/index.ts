export { createRedis, closeRedis, reconnectDelay, type CreateRedisOptions, type Redis } from './client.js';
export { RedisLock, type RedisLockOptions, type RunExclusiveOptions } from './lock.js';
export { timeCommands } from './command-metrics.js';
export { watchEvictionPolicy, parseMaxmemoryPolicy } from './eviction-policy.js';
