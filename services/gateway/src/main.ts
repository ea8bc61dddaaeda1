import { ConfigError } from '@platform/config';
import { createLogger } from '@platform/logger';
import { startTelemetry } from '@platform/telemetry';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { buildGateway } from './gateway.js';
import { drainAndClose } from './http/shutdown.js';
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

// The gateway has no one-shot commands (migrate, kafka-topics run in the services' images): a Job
// that names one here must fail loudly (EX_USAGE), not start a second gateway.
const [command = 'serve'] = process.argv.slice(2);
if (command !== 'serve') {
  process.stderr.write(`gateway: unknown command "${command}" (known: serve)\n`);
  process.exit(64);
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

let stopping = false;
const hurry = new AbortController();

async function shutdown(signal: string): Promise<void> {
  // A second signal (an impatient Ctrl-C) ends the drain window at once; the sequence stays the same.
  if (stopping) return hurry.abort();
  stopping = true;
  logger.info({ signal, drain_ms: config.SHUTDOWN_DRAIN_MS }, 'gateway draining: not ready, still serving');
  // The last resort if closing hangs (a stuck telemetry export): past every bound of the sequence.
  setTimeout(() => process.exit(1), config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
  const report = await drainAndClose(server, gateway.drain, {
    drainMs: config.SHUTDOWN_DRAIN_MS,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    hurry: hurry.signal,
  });
  if (report.connectionsCut)
    logger.warn(report, 'requests still in flight after SHUTDOWN_TIMEOUT_MS were cut');
  await gateway.close();
  await telemetry.shutdown();
  logger.info(
    { streams_sent_away: report.streamsSentAway, shutdown_ms: report.elapsedMs },
    'gateway stopped',
  );
  process.exit(0);
}
function onSignal(signal: string): void {
  shutdown(signal).catch((error: unknown) => {
    logger.fatal({ err: error }, 'gateway shutdown failed');
    process.exit(1);
  });
}
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));
