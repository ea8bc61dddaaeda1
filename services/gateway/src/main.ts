import { ConfigError } from '@platform/config';
import { createLogger } from '@platform/logger';
import { createGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';
import { routeTable } from './routes/index.js';
import { closeServiceClients, createServiceClients } from './service-clients.js';

const VERSION = process.env.npm_package_version ?? '0.1.0';

async function main(): Promise<void> {
  let config;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const clients = createServiceClients(config);
  const app = createGatewayApp({
    logger,
    routes: routeTable,
    clients,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    version: VERSION,
    trustProxy: config.TRUST_PROXY,
  });
  const server = app.listen(config.HTTP_PORT, config.HTTP_HOST, () => {
    logger.info({ port: config.HTTP_PORT, routes: routeTable.length }, 'gateway listening');
  });
  server.keepAliveTimeout = 65_000;

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'gateway shutting down');
    server.close(() => {
      closeServiceClients(clients);
      logger.info('gateway stopped');
      process.exit(0);
    });
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
