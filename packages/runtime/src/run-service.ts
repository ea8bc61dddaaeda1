import { ConfigError, trustedCallerKeys } from '@platform/config';
import {
  createServerTrust,
  startGrpcServer,
  type ServerTrust,
  type ServiceRegistration,
} from '@platform/grpc';
import { SchemaBehindError } from '@platform/db';
import { createLogger, type Logger } from '@platform/logger';
import { startTelemetry, type TelemetryConfig, type RunningTelemetry } from '@platform/telemetry';
import { setTimeout as delay } from 'node:timers/promises';
import { BUILTIN_COMMANDS, runCommandAndExit, type ServiceCommand } from './commands.js';
import { migrateCommand } from './migrate-command.js';

export interface ServiceStartContext<C> {
  config: C;
  logger: Logger;
}

export interface StartedService {
  services: ServiceRegistration[];
  /**
   * Called at once on SIGTERM, before the gRPC server drains: workers stop taking new work (a run
   * worker stops claiming) while what is in flight goes on; `stop` then waits for it.
   */
  beginDrain?: () => void;
  /** Closes what `start` opened (pools, consumers, clients), after the gRPC server drained. */
  stop?: () => Promise<void>;
}

/**
 * The trust variables every domain service validates (`serviceTrustShape(callers)`,
 * docs/security.md): the principal key(s), plus one `SERVICE_PUBLIC_KEY_<CALLER>` per declared caller.
 */
export interface ServiceTrustConfig {
  PRINCIPAL_SIGNING_PUBLIC_KEY: readonly string[];
}

/** The call checks of the service `name` (the audience its callers sign for), from its config. */
export function serviceTrust(name: string, config: ServiceTrustConfig): ServerTrust {
  return createServerTrust({
    audience: name,
    principalPublicKeys: config.PRINCIPAL_SIGNING_PUBLIC_KEY,
    callerKeys: trustedCallerKeys(config),
  });
}

export type BaseServiceConfig = {
  GRPC_PORT: number;
  LOG_LEVEL: string;
  /** Serving on after readiness went NOT_SERVING, before draining (packages/config shutdownShape). */
  SHUTDOWN_DELAY_MS?: number;
} & ServiceTrustConfig &
  TelemetryConfig;

export interface RunServiceOptions<C extends BaseServiceConfig> {
  /** The service's name: its log name and the audience its callers' tokens must name. */
  name: string;
  loadConfig: () => C;
  start: (context: ServiceStartContext<C>) => Promise<StartedService>;
  /** How long calls in flight may take to finish on SIGTERM. */
  shutdownGraceMs?: number;
  /** The service's own one-shot commands, beside BUILTIN_COMMANDS (`node dist/main.js <command>`). */
  commands?: Record<string, ServiceCommand>;
  /** Its Postgres migrations folder: gives the image the `migrate` command (migrate-command.ts). */
  migrations?: URL;
}

/** Exit code for a configuration error (EX_CONFIG), so orchestrators can tell it from a crash. */
const EXIT_CONFIG = 78;

function loadOrExit<C>(name: string, load: () => C): C {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw error;
  }
}

/**
 * The composition root every domain service shares (`node dist/main.js [serve]`; any other first
 * argument runs a one-shot command, see commands.ts): config → logger → telemetry (metrics port,
 * tracing; docs/operations.md) → the service's own wiring →
 * gRPC server (with health and the trust checks) → graceful shutdown on SIGTERM/SIGINT. A failure to start exits 1 with
 * the cause logged.
 */
export async function runService<C extends BaseServiceConfig>(options: RunServiceOptions<C>): Promise<void> {
  const [command = 'serve', ...args] = process.argv.slice(2);
  if (command !== 'serve') {
    const migrate: Record<string, ServiceCommand> = options.migrations
      ? { migrate: migrateCommand(options.migrations) }
      : {};
    await runCommandAndExit(options.name, command, args, {
      ...BUILTIN_COMMANDS,
      ...migrate,
      ...options.commands,
    });
  }
  const config = loadOrExit(options.name, options.loadConfig);
  const logger = createLogger(options.name, config.LOG_LEVEL);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

  let started: StartedService;
  let server;
  let telemetry: RunningTelemetry;
  try {
    telemetry = await startTelemetry({ service: options.name, config, logger });
    started = await options.start({ config, logger });
    server = await startGrpcServer({
      port: config.GRPC_PORT,
      logger,
      services: started.services,
      // A process that serves only grpc.health.v1 (the sandbox worker) trusts no caller at all.
      ...(started.services.length > 0 ? { trust: serviceTrust(options.name, config) } : {}),
    });
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    // A deployment problem found at start (a schema older than this image, Kafka topics not
    // provisioned, a bad variable): restarting cannot help, the migrate or topics Job can — EX_CONFIG.
    if (error instanceof SchemaBehindError || error instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${error.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    process.exit(1);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Readiness first: NOT_SERVING at once so no new traffic is routed here, while calls keep
    // being answered; the workers stop taking new work at the same moment.
    server.markNotServing();
    started.beginDrain?.();
    try {
      if (config.SHUTDOWN_DELAY_MS) await delay(config.SHUTDOWN_DELAY_MS);
      await server.shutdown(options.shutdownGraceMs ?? 10_000);
      await started.stop?.();
      await telemetry.shutdown();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
