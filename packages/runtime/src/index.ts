export {
  runService,
  type ServiceStartContext,
  type StartedService,
  type RunServiceOptions,
} from './run-service.js';
export { serviceInfoHandler } from './service-info.js';
export { runDatabaseService, type DatabaseServiceOptions } from './run-database-service.js';
export { connectInfrastructure, type Infrastructure, type InfrastructureConfig } from './infrastructure.js';
export { startWhenKafkaIsReachable, type BackgroundStartOptions } from './kafka-background.js';
