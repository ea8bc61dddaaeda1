import { z } from 'zod';
import { env } from './env-types.js';
import { ConfigError } from './config-error.js';

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof SASL_MECHANISMS)[number];

export const KAFKA_TOPIC_MODES = ['create', 'verify'] as const;
export type KafkaTopicMode = (typeof KAFKA_TOPIC_MODES)[number];

const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;

/**
 * The topic variables (deploy/README.md "Kafka topics"): how the service treats missing topics, and
 * the catalog's partition counts replaced where a deployment plans more replicas.
 */
export const kafkaTopicShape = {
  /**
   * `create` (default: the local stack, compose and the tests need no provisioning step): missing
   * topics are created as the catalog declares them. `verify` (production): nothing is created;
   * at start the service checks the topics it uses and refuses to start (exit 78) when one is
   * missing or has too few partitions.
   */
  KAFKA_TOPIC_MODE: z
    .enum(KAFKA_TOPIC_MODES, { message: `must be one of ${KAFKA_TOPIC_MODES.join(', ')}` })
    .default('create'),
  /** `queue.workflow=48,queue.default=24`: partitions per catalog topic, instead of the catalog's. */
  KAFKA_TOPIC_PARTITIONS: z
    .string()
    .optional()
    .transform((value, ctx): Record<string, number> => {
      const overrides: Record<string, number> = {};
      for (const pair of (value ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [name = '', count = ''] = pair.split('=').map((p) => p.trim());
        const partitions = Number(count);
        if (!TOPIC_NAME.test(name) || !/^\d+$/.test(count) || partitions < 1 || partitions > 10_000) {
          ctx.addIssue({ code: 'custom', message: `"${pair}" is not <topic>=<partitions> (1..10000)` });
          return z.NEVER;
        }
        overrides[name] = partitions;
      }
      return overrides;
    }),
};

/**
 * Variables of a service that talks to Kafka: the brokers, and SASL credentials and TLS for a
 * cluster that asks for them (deploy/README.md wires them from a Secret). Unset SASL = none.
 */
export const kafkaShape = {
  KAFKA_BROKERS: env.hostPorts(),
  KAFKA_SASL_MECHANISM: z
    .enum(SASL_MECHANISMS, { message: `must be one of ${SASL_MECHANISMS.join(', ')}` })
    .optional(),
  KAFKA_SASL_USERNAME: z.string().max(1024).optional(),
  KAFKA_SASL_PASSWORD: z.string().max(1024).optional(),
  KAFKA_SSL: env.boolean(false),
  ...kafkaTopicShape,
};

export interface KafkaSecurityConfig {
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism | undefined;
  KAFKA_SASL_USERNAME?: string | undefined;
  KAFKA_SASL_PASSWORD?: string | undefined;
  KAFKA_SSL?: boolean | undefined;
}

export interface KafkaSecurity {
  ssl: boolean;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

/**
 * The connection security the variables describe. A mechanism needs both credentials and
 * credentials need a mechanism: either half alone is a configuration error (exit 78 at start),
 * never a silent unauthenticated connection.
 */
export function kafkaSecurity(service: string, config: KafkaSecurityConfig): KafkaSecurity {
  const {
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: username,
    KAFKA_SASL_PASSWORD: password,
  } = config;
  const ssl = config.KAFKA_SSL ?? false;
  if (!mechanism && !username && !password) return { ssl };
  const problems: string[] = [];
  if (!mechanism) problems.push('KAFKA_SASL_MECHANISM is missing (KAFKA_SASL_USERNAME/PASSWORD are set)');
  if (!username) problems.push('KAFKA_SASL_USERNAME is missing (KAFKA_SASL_MECHANISM is set)');
  if (!password) problems.push('KAFKA_SASL_PASSWORD is missing (KAFKA_SASL_MECHANISM is set)');
  if (problems.length > 0 || !mechanism || !username || !password) throw new ConfigError(service, problems);
  return { ssl, sasl: { mechanism, username, password } };
}
