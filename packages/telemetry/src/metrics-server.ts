import { createServer, type Server } from 'node:http';
import type { Logger } from '@platform/logger';
import { metricsRegistry } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on its own port, never the public one: the
 * figures name routes, queues and pool sizes an outsider has no business reading. `port` 0 binds
 * any free port (tests run several copies of a service on one host).
 */
export async function startMetricsServer(options: {
  port: number;
  host?: string;
  logger: Logger;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    metricsRegistry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `metrics port ${options.port} could not be opened (${error.code ?? error.message}); set METRICS_PORT to a free port (0: any)`,
        ),
      ),
    );
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : options.port);
    });
  });
  options.logger.info({ port }, 'metrics listening on /metrics');
  return {
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
