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
  kafkaSecurity,
  type KafkaSecurity,
  type KafkaSecurityConfig,
  type KafkaSaslMechanism,
} from './kafka-env.js';
export {
  migrateOnStartShape,
  postgresShape,
  migrateCommandShape,
  loadMigrateCommandConfig,
  type MigrateCommandConfig,
} from './database-env.js';
