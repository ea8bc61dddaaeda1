import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from '@platform/logger';

export interface TracingOptions {
  service: string;
  version?: string;
  /** OTLP/HTTP base URL (the collector's `:4318`); spans go to `<endpoint>/v1/traces`. Unset: off. */
  endpoint?: string | undefined;
  /** Share of new traces recorded (0…1); a trace begun elsewhere follows its parent's decision. */
  sampleRatio: number;
  logger: Logger;
}

export interface Tracing {
  /** Whether spans are exported (an endpoint is configured). */
  exporting: boolean;
  /** Sends the spans still buffered, then stops exporting and recording spans. */
  shutdown(): Promise<void>;
}

let contextInstalled = false;

/**
 * Context and W3C propagation are always on, so a `traceparent` received is passed on (and logs
 * carry its ids) even where this process exports nothing. Spans are recorded and exported over
 * OTLP only when an endpoint is configured, sampled parent-based with `sampleRatio` for new roots.
 */
export function initTracing(options: TracingOptions): Tracing {
  if (!contextInstalled) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    contextInstalled = true;
  }
  if (!options.endpoint) return { exporting: false, shutdown: async () => undefined };

  const url = `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.service,
      ...(options.version ? { [ATTR_SERVICE_VERSION]: options.version } : {}),
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url, timeoutMillis: 5_000 }), {
        // Bounded: when the collector is down, spans are dropped rather than held without limit.
        maxQueueSize: 4096,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 1_000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  options.logger.info({ endpoint: url, sample_ratio: options.sampleRatio }, 'exporting traces over OTLP');
  return {
    exporting: true,
    async shutdown() {
      await provider.shutdown().catch((error: unknown) => {
        options.logger.warn({ err: error }, 'trace export flush failed on shutdown');
      });
      // No more recording spans in this process (tests trace in-process and then move on).
      trace.disable();
    },
  };
}
