import { createLogger } from '@platform/logger';
import { afterEach, describe, expect, it } from 'vitest';
import {
  setTelemetryEnabled,
  startTelemetry,
  telemetryEnabled,
  type RunningTelemetry,
} from '../src/index.js';

const logger = createLogger('switch-test', 'silent');
const config = {
  METRICS_PORT: 0,
  METRICS_HOST: '127.0.0.1',
  OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
  OTEL_TRACES_SAMPLER_ARG: 0.1,
};

describe('TELEMETRY_ENABLED', () => {
  let running: RunningTelemetry | undefined;
  afterEach(async () => {
    await running?.shutdown();
    running = undefined;
    setTelemetryEnabled(true);
  });

  it('false: no metrics port is opened and the hot paths are told to skip their work', async () => {
    running = await startTelemetry({
      service: 'switch-test',
      config: { ...config, TELEMETRY_ENABLED: false },
      logger,
    });
    expect(running.metricsPort).toBe(0);
    expect(telemetryEnabled()).toBe(false);
  });

  it('true (the default when unset): /metrics answers on its own port with the service label', async () => {
    setTelemetryEnabled(false); // a previous start with the switch off must not stick
    running = await startTelemetry({ service: 'switch-test', config, logger });
    expect(telemetryEnabled()).toBe(true);
    expect(running.metricsPort).toBeGreaterThan(0);
    const response = await fetch(`http://127.0.0.1:${running.metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^process_cpu_seconds_total\{service="switch-test"\} /m);
  });
});
