import { commonShape, env, kafkaShape, loadConfig, serviceTrustShape } from '@platform/config';
import { z } from 'zod';

const schema = z.object({
  ...commonShape,
  /** Principal signature and service-token checks (docs/security.md). */
  ...serviceTrustShape,
  GRPC_PORT: env.port().default(50066),
  DATABASE_URL: env.postgresUrl(),
  REDIS_URL: env.redisUrl(),
  ...kafkaShape,
  /** Prefix of every Redis key the service writes (snapshot list, cached payloads). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]+$/)
    .max(100)
    .default('observability:'),
  /**
   * Prefix of the work-queue topics and worker groups `/system/workers` reads. Empty in
   * production; tests use a unique one.
   */
  QUEUE_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
  /** Filesystem the disk monitor of `/system/health` reports on. */
  HEALTH_DISK_PATH: z.string().min(1).default('/'),
  /**
   * Databases whose statements `/system/slow-queries` lists, comma-separated; `*` lists every
   * database of the cluster.
   */
  SLOW_QUERY_DATABASES: z
    .string()
    .default('identity,apikeys,models,workflows,observability')
    .transform((value) =>
      value.trim() === '*'
        ? []
        : value
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
    ),
});

export type ObservabilityConfig = z.infer<typeof schema>;

export function loadObservabilityConfig(
  source: Record<string, string | undefined> = process.env,
): ObservabilityConfig {
  return loadConfig('observability', schema, source);
}
