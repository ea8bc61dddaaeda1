export { loadConfig, ConfigError, type ConfigSchema } from './load-config.js';
export { env, commonShape, telemetryShape } from './env-types.js';
export {
  trustEnv,
  serviceTrustShape,
  serviceSigningShape,
  servicePublicKeyVariable,
  declaredCallers,
  trustedCallerKeys,
  MAX_SERVICE_PUBLIC_KEYS,
  type ServicePublicKeyVariable,
} from './trust-env.js';
export { taskSealShape } from './task-seal-env.js';
export {
  kafkaShape,
  kafkaTopicShape,
  kafkaSecurity,
  KAFKA_TOPIC_MODES,
  type KafkaTopicMode,
  type KafkaSecurity,
  type KafkaSecurityConfig,
  type KafkaSaslMechanism,
} from './kafka-env.js';
export {
  PROCESS_ROLES,
  processRoleShape,
  apiOnlyRoleShape,
  servesApi,
  runsWorkers,
  shutdownShape,
  type ProcessRole,
} from './process-role-env.js';
export {
  parsePostgresUrl,
  mongoUrlProblem,
  TARGET_SESSION_ATTRS,
  type PostgresUrl,
  type PostgresHost,
  type TargetSessionAttrs,
} from './connection-urls.js';
export { loadKafkaOnlyConfig, type KafkaOnlyConfig } from './kafka-only-config.js';
export {
  migrateOnStartShape,
  postgresShape,
  migrateCommandShape,
  loadMigrateCommandConfig,
  type MigrateCommandConfig,
} from './database-env.js';
