export {
  runService,
  serviceTrust,
  type ServiceStartContext,
  type StartedService,
  type RunServiceOptions,
  type BaseServiceConfig,
  type ServiceTrustConfig,
} from './run-service.js';
export { serviceInfoHandler } from './service-info.js';
export { runDatabaseService, type DatabaseServiceOptions } from './run-database-service.js';
export { connectInfrastructure, type Infrastructure, type InfrastructureConfig } from './infrastructure.js';
export { startWhenKafkaIsReachable, type BackgroundStartOptions } from './kafka-background.js';
export { DailyTask, type DailyTaskOptions } from './daily-task.js';
export { calendarDaysBetween, localDate, nextLocalTime } from './local-calendar.js';
export { BUILTIN_COMMANDS, runCommandAndExit, type ServiceCommand } from './commands.js';
export { requireKafkaTopics, TopicsNotProvisionedError, type RequireTopicsOptions } from './kafka-topics.js';
export { migrateCommand } from './migrate-command.js';
