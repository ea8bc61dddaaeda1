export {
  createPool,
  withDatabase,
  type CreatePoolOptions,
  type Pool,
  type PoolClient,
  type QueryResultRow,
} from './pool.js';
export { withTransaction, type IsolationLevel, type TransactionOptions } from './transaction.js';
export { runMigrations, type RunMigrationsOptions } from './migrations.js';
export { ensureDatabase, dropDatabase } from './ensure-database.js';
export { schemaVersion } from './schema-version.js';
export { openDatabase } from './open-database.js';
export { openListenConnection, type ListenConnection, type ListenHandlers } from './listen-connection.js';
export { newClient } from './multi-host.js';
export { endWithSessionPool, type OpenDatabaseOptions } from './open-database.js';
export { attachSessionPool, sessionPoolOf } from './session-pool.js';
export {
  assertSchemaCurrent,
  readSchemaStatus,
  shippedMigrations,
  SchemaBehindError,
  type SchemaStatus,
} from './schema-check.js';
export { grantRuntimeRole, type GrantRuntimeRoleOptions } from './runtime-role.js';
