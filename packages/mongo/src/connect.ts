import mongoose, { type Connection, type ConnectOptions } from 'mongoose';
import { createLogger, type Logger } from '@platform/logger';

export type { Connection };

export interface ConnectMongoOptions {
  logger?: Logger;
  /** How long an operation waits for a usable server before failing. Default 5000 ms. */
  serverSelectionTimeoutMs?: number;
  /** TCP connect timeout. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Socket inactivity timeout; 0 disables. Default 30 000 ms. */
  socketTimeoutMs?: number;
  /** Default 10. */
  maxPoolSize?: number;
  /** Shown in server logs / `currentOp`. */
  appName?: string;
  /**
   * Let mongoose build indexes in the background when a model is first compiled. Default false:
   * background index builds swallow failures into an `error` event nobody awaits, and run while the
   * service already accepts traffic. Call `syncIndexes(connection)` at start-up instead.
   */
  autoIndex?: boolean;
}

/**
 * Opens a dedicated mongoose connection (not the global `mongoose.connection`, so tests and services
 * can hold several) and resolves once the server answered. Fails within `serverSelectionTimeoutMs`
 * when nothing is listening instead of retrying forever.
 */
export async function connectMongo(url: string, options: ConnectMongoOptions = {}): Promise<Connection> {
  const logger = (options.logger ?? createLogger('mongo')).child({ component: 'mongo' });
  const connectOptions: ConnectOptions = {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000,
    connectTimeoutMS: options.connectTimeoutMs ?? 5000,
    socketTimeoutMS: options.socketTimeoutMs ?? 30_000,
    maxPoolSize: options.maxPoolSize ?? 10,
    autoIndex: options.autoIndex ?? false,
    autoCreate: true,
  };
  if (options.appName) connectOptions.appName = options.appName;

  const connection = mongoose.createConnection(url, connectOptions);
  connection.on('error', (err: Error) => logger.error({ err: err.message }, 'mongo connection error'));
  connection.on('disconnected', () => logger.warn('mongo disconnected'));
  connection.on('reconnected', () => logger.info('mongo reconnected'));
  try {
    await connection.asPromise();
  } catch (err) {
    await connection.close(true).catch(() => undefined);
    throw err;
  }
  logger.debug({ db: connection.name }, 'mongo connected');
  return connection;
}

/**
 * Creates the indexes declared on every model of `connection` (or only `modelNames`) and drops
 * indexes the schemas no longer declare. Run at start-up, before serving, so a unique index that
 * cannot be built stops the service instead of silently not existing.
 */
export async function syncIndexes(connection: Connection, modelNames?: string[]): Promise<void> {
  const names = modelNames ?? connection.modelNames();
  for (const name of names) {
    const model = connection.model(name);
    await model.createCollection().catch((err: { code?: number }) => {
      if (err.code !== 48) throw err; // 48 NamespaceExists
    });
    await model.syncIndexes();
  }
}

/** Closes the connection; waits for in-flight operations unless `force`. Safe to call twice. */
export async function closeMongo(connection: Connection, force = false): Promise<void> {
  if (connection.readyState === mongoose.ConnectionStates.disconnected) return;
  await connection.close(force);
}

/** True for a duplicate-key error (unique index violation, code 11000) from a write. */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === 11000 || code === 11001;
}
