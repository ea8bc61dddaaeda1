import type { Logger } from '@platform/logger';
import { initMetrics } from './metrics.js';
import { startMetricsServer } from './metrics-server.js';
import { setTelemetryEnabled } from './switch.js';
import { initTracing } from './tracing.js';

/** The telemetry settings every process validates (`telemetryShape` in @platform/config). */
export interface TelemetryConfig {
  /** false: no metrics port, no tracing, and the hot paths skip span and histogram work. */
  TELEMETRY_ENABLED?: boolean;
  METRICS_PORT: number;
  METRICS_HOST: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_TRACES_SAMPLER_ARG: number;
}

export interface RunningTelemetry {
  /** The port `/metrics` is served on; 0 when telemetry is off. */
  metricsPort: number;
  /** Stops serving metrics and flushes the spans still buffered. */
  shutdown(): Promise<void>;
}

/** Metrics registry + its port, and tracing: the first thing a process starts after its config. */
export async function startTelemetry(options: {
  service: string;
  version?: string;
  config: TelemetryConfig;
  logger: Logger;
}): Promise<RunningTelemetry> {
  const { config, logger } = options;
  if (config.TELEMETRY_ENABLED === false) {
    // Nothing started: no registry defaults, no metrics port, no context manager or exporter.
    setTelemetryEnabled(false);
    logger.info('telemetry off (TELEMETRY_ENABLED=false): no metrics port, no traces');
    return { metricsPort: 0, shutdown: async () => undefined };
  }
  setTelemetryEnabled(true);
  initMetrics(options.service);
  const tracing = initTracing({
    service: options.service,
    version: options.version,
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
    logger,
  });
  const server = await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, logger });
  return {
    metricsPort: server.port,
    async shutdown() {
      await server.close();
      await tracing.shutdown();
    },
  };
}
