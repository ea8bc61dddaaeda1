// Telemetry for a bench child, started the way the gateway's main starts it (startTelemetry), with
// the switch and the OTLP settings from the environment: TELEMETRY_ENABLED (default true),
// OTEL_EXPORTER_OTLP_ENDPOINT (unset: no export), OTEL_TRACES_SAMPLER_ARG (default 0.1). The
// metrics port is any free one (nobody scrapes a bench child).
import { createLogger } from '@platform/logger';
import { startTelemetry, type RunningTelemetry } from '@platform/telemetry';

export function startBenchTelemetry(service: string): Promise<RunningTelemetry> {
  const env = process.env;
  return startTelemetry({
    service,
    config: {
      TELEMETRY_ENABLED: !['false', '0', 'no'].includes(env.TELEMETRY_ENABLED ?? 'true'),
      METRICS_PORT: 0,
      METRICS_HOST: '127.0.0.1',
      OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
      OTEL_TRACES_SAMPLER_ARG: Number(env.OTEL_TRACES_SAMPLER_ARG ?? '0.1'),
    },
    logger: createLogger(`bench-${service}-telemetry`, 'warn'),
  });
}
