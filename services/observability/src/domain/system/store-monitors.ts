import type { Pool } from '@platform/db';
import type { Redis } from '@platform/redis';
import { databaseStatus, redisStatus, round2, type MonitorStatus } from './thresholds.js';

export interface DatabaseReading {
  status: MonitorStatus;
  active_connections: number;
  max_connections: number;
  usage_percent: number;
}

export interface RedisReading {
  status: MonitorStatus;
  used_memory: number;
  connected_clients: number;
  ops_per_sec: number;
  hit_rate: number;
}

/** A probe that has not answered within this long counts as unreachable. */
export const PROBE_TIMEOUT_MS = 3000;

export function withTimeout<T>(work: Promise<T>, ms = PROBE_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Client connections against `max_connections`; unreachable is `danger` with zeros. */
export async function readDatabase(pool: Pool): Promise<DatabaseReading> {
  try {
    const { rows } = await withTimeout(
      pool.query<{ active: number; max: number }>(
        `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS active,
                current_setting('max_connections')::int AS max`,
      ),
    );
    const { active, max } = rows[0]!;
    const usage = max > 0 ? round2((active / max) * 100) : 0;
    return {
      status: databaseStatus(usage),
      active_connections: active,
      max_connections: max,
      usage_percent: usage,
    };
  } catch {
    return { status: 'danger', active_connections: 0, max_connections: 0, usage_percent: 0 };
  }
}

function infoFields(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of info.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}

/** From `INFO`: memory, clients, ops/s and the keyspace hit rate; unreachable is `danger` with zeros. */
export async function readRedis(redis: Redis): Promise<RedisReading> {
  try {
    const info = infoFields(await withTimeout(redis.info()));
    const num = (name: string) => Number(info.get(name) ?? 0) || 0;
    const hits = num('keyspace_hits');
    const lookups = hits + num('keyspace_misses');
    const hitRate = lookups > 0 ? round2((hits / lookups) * 100) : 0;
    const usedMemory = num('used_memory');
    return {
      status: redisStatus(hitRate, lookups, usedMemory, num('maxmemory')),
      used_memory: usedMemory,
      connected_clients: num('connected_clients'),
      ops_per_sec: num('instantaneous_ops_per_sec'),
      hit_rate: hitRate,
    };
  } catch {
    return { status: 'danger', used_memory: 0, connected_clients: 0, ops_per_sec: 0, hit_rate: 0 };
  }
}
