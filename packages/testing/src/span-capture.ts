import { trace } from '@opentelemetry/api';

/** Span kinds, to pick captured spans by kind without a dependency on the tracing packages. */
export { SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { createLogger } from '@platform/logger';
import { initTracing } from '@platform/telemetry';

export interface SpanCapture {
  /** Every span ended since this capture began (or since `reset`). */
  spans(): ReadableSpan[];
  /** The span's parent span id ('' for a root). */
  parentOf(span: ReadableSpan): string;
  reset(): void;
  /** Stops keeping spans (the next captureSpans starts empty). */
  stop(): void;
}

const PROCESS_CAPTURE = Symbol.for('platform.testing.span-capture');
type Holder = { [PROCESS_CAPTURE]?: InMemorySpanExporter };

/**
 * The process's in-memory exporter. The OpenTelemetry API keeps ONE global provider per process,
 * and the integration project runs every test file in one process: so the provider is registered
 * once and kept, and each file's capture just empties the exporter.
 */
function processExporter(): InMemorySpanExporter {
  const holder = globalThis as Holder;
  if (holder[PROCESS_CAPTURE]) return holder[PROCESS_CAPTURE];
  initTracing({ service: 'test', sampleRatio: 1, logger: createLogger('span-capture', 'silent') });
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  if (!trace.setGlobalTracerProvider(provider)) {
    throw new Error('another tracer provider is registered in this process: spans cannot be captured');
  }
  holder[PROCESS_CAPTURE] = exporter;
  return exporter;
}

/**
 * Records every span this test process ends, in memory (every new trace sampled): for tests that
 * check a trace's shape across a hop (gRPC metadata, Kafka headers, the outbox) on real servers.
 * The context manager and the W3C propagator are the ones production installs (`initTracing`).
 */
export function captureSpans(): SpanCapture {
  const exporter = processExporter();
  exporter.reset();
  return {
    spans: () => exporter.getFinishedSpans(),
    parentOf: (span) => span.parentSpanContext?.spanId ?? '',
    reset: () => exporter.reset(),
    stop: () => exporter.reset(),
  };
}
