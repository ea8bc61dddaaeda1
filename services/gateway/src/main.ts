import { ConfigError } from '@platform/config';
import { createLogger } from '@platform/logger';
import { startTelemetry } from '@platform/telemetry';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { buildGateway } from './gateway.js';
import { routeTable } from './routes/index.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

function configOrExit(): GatewayConfig {
  try {
    return loadGatewayConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}

const config = configOrExit();
const logger = createLogger('gateway', config.LOG_LEVEL);
// Telemetry first: its context manager must be in place before the first request is served.
const telemetry = await startTelemetry({ service: 'gateway', version: VERSION, config, logger }).catch(
  (error: unknown) => {
    logger.fatal({ err: error }, 'gateway failed to start');
    process.exit(1);
  },
);
const gateway = buildGateway(config, logger, VERSION);
const server = gateway.app.listen(config.HTTP_PORT, config.HTTP_HOST, () => {
  logger.info({ port: config.HTTP_PORT, routes: routeTable.length }, 'gateway listening');
});
server.keepAliveTimeout = 65_000;

function shutdown(signal: string): void {
  logger.info({ signal }, 'gateway shutting down');
  server.close(() => {
    void gateway.close().then(async () => {
      await telemetry.shutdown();
      logger.info('gateway stopped');
      process.exit(0);
    });
  });
  setTimeout(() => process.exit(1), 15_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
