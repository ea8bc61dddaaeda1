import { z } from 'zod';
import { env } from './env-types.js';
import { ConfigError } from './config-error.js';

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof SASL_MECHANISMS)[number];

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
