import mongoose, { type Connection, type ConnectOptions } from 'mongoose';
import { createLogger, type Logger } from '@platform/logger';

export type { Connection };

const closing = new WeakSet<Connection>();

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
   * service already accepts traffic, and on FerretDB an unsupported index option (TTL, collation,
   * partial) would fail the whole batch. Call `syncIndexes(connection)` at start-up instead.
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
  // Before the first successful connect a failure is reported by the rejected promise; after it,
  // only logged (the driver keeps reconnecting). A close we asked for is not an incident.
  let established = false;
  connection.on('error', (err: Error) => {
    if (established) logger.error({ err: err.message }, 'mongo connection error');
  });
  connection.on('disconnected', () => {
    if (established && !closing.has(connection)) logger.warn('mongo disconnected');
  });
  connection.on('reconnected', () => logger.info('mongo reconnected'));
  try {
    await connection.asPromise();
  } catch (err) {
    closing.add(connection);
    await connection.close(true).catch(() => undefined);
    throw err;
  }
  established = true;
  logger.debug({ db: connection.name }, 'mongo connected');
  return connection;
}

/** Closes the connection; waits for in-flight operations unless `force`. Safe to call twice. */
export async function closeMongo(connection: Connection, force = false): Promise<void> {
  closing.add(connection);
  if (connection.readyState === mongoose.ConnectionStates.disconnected) return;
  await connection.close(force);
}

/** True for a duplicate-key error (unique index violation, code 11000) from a write. */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === 11000 || code === 11001;
}
