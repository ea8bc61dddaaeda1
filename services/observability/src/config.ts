import {
  commonShape,
  processRoleShape,
  env,
  kafkaShape,
  loadConfig,
  postgresShape,
  serviceSigningShape,
  serviceTrustShape,
} from '@platform/config';
import { z } from 'zod';

const name = (fallback: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .max(200)
    .default(fallback);

const schema = z.object({
  ...commonShape,
  /** `api`: no fact/agent-directory consumers; `worker`: only those (deploy/README.md). */
  ...processRoleShape,
  /** Principal signature checks; no internal-only methods here, so no caller keys (docs/security.md). */
  ...serviceTrustShape([]),
  /** Its own key for the service tokens of its outgoing calls (docs/security.md). */
  ...serviceSigningShape,
  GRPC_PORT: env.port().default(50066),
  /** DATABASE_URL, DATABASE_SESSION_URL, MIGRATE_ON_START (deploy/README.md "Migrations"). */
  ...postgresShape,
  /** The 30 s payload cache, health snapshots, worker task marks. */
  REDIS_URL: env.redisUrl(),
  /** Telemetry facts and the agent directory in; group state for /system/workers. */
  ...kafkaShape,
  /** Workflow names (workflows' GetWorkflowNames). */
  WORKFLOWS_GRPC_ADDR: env.hostPort(),
  /** Team quota counters for /tokens (models' usage totals). */
  MODELS_GRPC_ADDR: env.hostPort(),
  /**
   * Aggregate queries running at once in this process (spec Limits); an integer > 0, else the
   * service refuses to start.
   */
  DB_AGGREGATE_CONCURRENCY: env.positiveInt().default(4),
  /** How often the sliding windows drop the hours that left them (queries correct any lag). */
  WINDOW_ADVANCE_INTERVAL_MS: env.positiveInt().default(60_000),
  /** Seconds a payload stays cached in Redis per (endpoint, parameters). */
  CACHE_TTL_SECONDS: env.positiveInt().default(30),
  /** Prefix of this service's Redis keys; tests use a unique one. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]+$/)
    .max(100)
    .default('observability:'),
  /** Prefix of the telemetry topics read (tests isolate themselves; default empty). */
  TELEMETRY_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
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
  /** Consumer group of the fact consumers (shared by replicas: the fact tables are shared). */
  TELEMETRY_GROUP: name('observability.telemetry'),
  /** Consumer group that fills agent_directory from `platform.agent-directory`. */
  AGENT_DIRECTORY_GROUP: name('observability.agent-directory'),
  /**
   * Other services' event consumer groups whose lag `kafka_consumer_group_lag` exports, beside the
   * five worker groups and this service's own two: `group:topic` pairs, comma-separated (the
   * defaults of notifications' and apikeys' config). Empty: none.
   */
  CONSUMER_LAG_EVENT_GROUPS: z
    .string()
    .regex(/^([A-Za-z0-9._-]+:[A-Za-z0-9._-]+(,[A-Za-z0-9._-]+:[A-Za-z0-9._-]+)*)?$/, 'group:topic,…')
    .default(
      'notifications.notification-events:platform.notification-events,apikeys.agent-directory:platform.agent-directory',
    )
    .transform((value) =>
      value
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const [groupId, topic] = pair.split(':') as [string, string];
          return { groupId, topic };
        }),
    ),
  /** How long the consumer-lag gauges reuse one reading of the brokers (several scrapers, one Kafka). */
  CONSUMER_LAG_CACHE_MS: env.positiveInt().default(5_000),
});

export type ObservabilityConfig = z.infer<typeof schema>;

export function loadObservabilityConfig(
  source: Record<string, string | undefined> = process.env,
): ObservabilityConfig {
  return loadConfig('observability', schema, source);
}
